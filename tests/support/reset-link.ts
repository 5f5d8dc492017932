// The sandbox's password-reset link as tests use it: read from the mail, opened on the portal the test started.

/**
 * The path and query of the reset link in a mail (`/sandbox/reset?token=…`). The mail names the portal by the
 * sandbox's configured address; a test's portal listens on a port of its own, so the test opens the path there.
 */
export function resetLinkPath(body: string): string {
  const path = /\/sandbox\/reset\?token=[\w-]+/.exec(body)?.[0];
  if (!path) throw new Error(`no reset link in the mail: ${body}`);
  return path;
}

/** What the reset page's form posts: the link's token (a hidden field) and the new password, twice. */
export function resetForm(path: string, newPassword: string, confirmPassword = newPassword): URLSearchParams {
  const token = new URL(path, "http://portal.invalid").searchParams.get("token") ?? "";
  return new URLSearchParams({ token, newPassword, confirmPassword });
}

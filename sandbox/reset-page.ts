// The sandbox's password-reset pages: the form a mailed link opens, the page after it, and why a link was refused.
import { escapeHtml, htmlDocument } from "#sandbox/html.ts";
import { RESET_LINK_LIFETIME_MS } from "#sandbox/reset-links.ts";
import { requirements } from "#web/password-rules.ts";
import { passwordTexts } from "#web/texts/password.ts";

export type RefusedLink = "used" | "expired" | "unknown";

const TITLE = "Password reset";
const minutes = RESET_LINK_LIFETIME_MS / 60_000;
/** How long the portal keeps a session's permissions without asking the upstream (server/permissions.ts). */
const PORTAL_CACHE_MINUTES = 5;

/** Why a link was refused and how to ask again, on the portal's sign-in page (`signInUrl`, escaped here). */
export function refusalTexts(signInUrl: string): Record<RefusedLink, string> {
  const askAgain = `ask for a new one with "Reset Password" on the <a href="${escapeHtml(signInUrl)}">sign-in page</a>.`;
  return {
    used: `This password-reset link has already been used. Sign in with the password chosen then, or ${askAgain}`,
    expired: `This password-reset link has expired: a link works for ${minutes} minutes. Please ${askAgain}`,
    unknown:
      "This password-reset link is not valid: it may be mistyped or cut short. Each mailed link works on its own, " +
      `whatever was asked for after it: open it again from its mail, or ${askAgain}`,
  };
}

export interface ResetFormInput {
  username: string;
  token: string;
  /** Why the last try was refused, in requirements 5's words. */
  problem?: string | undefined;
}

/** The form the link opens. The token rides along as a hidden field, so the page's own address is not needed. */
export function renderResetForm({ username, token, problem }: ResetFormInput): string {
  const rules = requirements.map((rule) => `<li>${escapeHtml(rule.label)}</li>`).join("");
  const alert = problem === undefined ? "" : `<p role="alert" id="reset-problem">${escapeHtml(problem)}</p>`;
  const described = problem === undefined ? "password-rules" : "reset-problem password-rules";
  return htmlDocument(
    TITLE,
    `<h1>Choose a new password</h1>
<p>For user <strong>${escapeHtml(username)}</strong>. Until you set a new one, your current password keeps working.</p>
${alert}
<form method="post" action="/sandbox/reset">
  <input type="hidden" name="token" value="${escapeHtml(token)}">
  <label for="new-password">${escapeHtml(passwordTexts.newPassword)}
    <input id="new-password" name="newPassword" type="password" autocomplete="new-password" required aria-describedby="${described}">
  </label>
  <label for="confirm-password">${escapeHtml(passwordTexts.confirmPassword)}
    <input id="confirm-password" name="confirmPassword" type="password" autocomplete="new-password" required>
  </label>
  <button type="submit">Set New Password</button>
</form>
<h2 id="rules-heading">${escapeHtml(passwordTexts.requirementsHeading)}</h2>
<ul id="password-rules" aria-labelledby="rules-heading">${rules}</ul>`,
  );
}

/** What became of the sessions opened with the old password: the portal ends them at once only when it relayed the reset. */
export function sessionsAfterReset(relayed: boolean): string {
  if (relayed) return "Sessions opened with the old one have been signed out.";
  return (
    "Sessions opened with the old one can no longer reach the sandbox. The portal signs each of them out at its " +
    `next call to the sandbox: a page that needs none may still open for up to ${PORTAL_CACHE_MINUTES} minutes.`
  );
}

/** The page after a reset; `portalUrl` is the portal's address ("" on the portal's own origin), whose root signs in. */
export function renderResetDone(portalUrl: string, relayed: boolean): string {
  return htmlDocument(
    TITLE,
    `<h1>Your password has been changed</h1>
<p role="status">Sign in with your new password. ${escapeHtml(sessionsAfterReset(relayed))}</p>
<p><a href="${escapeHtml(`${portalUrl}/`)}">Go to the sign-in page</a></p>`,
  );
}

export function renderRefusedLink(reason: RefusedLink, portalUrl: string): string {
  const text = refusalTexts(`${portalUrl}/`)[reason];
  return htmlDocument(TITLE, `<h1>This link cannot be used</h1>\n<p role="alert">${text}</p>`);
}

// The few lines `npm start` prints on the sandbox: where the portal is, an account to sign in with, where the mail is.
import { SEED_PASSWORD } from "#sandbox/seed.ts";

export function sandboxBanner(portalUrl: string): string {
  // PUBLIC_URL may end in a slash; the mailbox's address must not then hold two.
  const base = portalUrl.replace(/\/+$/, "");
  const lines = [
    "",
    "  Payments Portal, on its embedded sandbox (no real upstream, no real e-mail)",
    "",
    `  Open      ${base}`,
    `  Sign in   CLIENT tab, company ACME, user alice, password ${SEED_PASSWORD}`,
    `  Mail      ${base}/sandbox/mail  (MFA codes, reset links, sign-in links)`,
    '  Accounts  README.md, "Signing in on the sandbox"',
    "  Stop      Ctrl+C",
    "",
  ];
  return lines.join("\n");
}

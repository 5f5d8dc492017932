// Texts of login by link (requirements 2.6, 4.6).
import { counted } from "#web/texts/plural.ts";

/**
 * How long a sign-in link works, as the provider's mail says it ("The link works once and expires in 24 hours."). The
 * sandbox's links last this long and its mail says so from this one number (sandbox/sessions.ts,
 * sandbox/sandbox-routes.ts), so the page that refuses a link and the mail that sent it never disagree.
 */
export const SIGN_IN_LINK_HOURS = 24;

export const linkLoginTexts = {
  heading: "Sign In",
  authenticating: "Authenticating...",
  invalid: "Invalid Login",
  /** Beside the requirements' "Invalid Login": what can make a link fail, and how to get a new one (the page's support line). */
  invalidHint: `A sign-in link works once, within ${counted(SIGN_IN_LINK_HOURS, "hour", "hours")} of being sent, and only for the account it was sent to. For a new link, contact us by phone or email (below), or sign in with your user ID and password.`,
  failed: (error: string) => `Login Failed: ${error}`,
  /** A bare /login (no uuid): no sign-in was tried, so no "Invalid Login". */
  incompleteHeading: "This sign-in link is incomplete",
  incomplete:
    "The link you followed is missing part of its address. Open the link from your email again, or sign in with your user ID and password.",
  signIn: "Go to the sign-in page",
  /** A link opened while a session exists replaces it only on the person's click. */
  replaceHeading: "Use this sign-in link?",
  signedInAs: (who: string) => `You are signed in as ${who}.`,
  replaceWarning:
    "This link opens the account it was sent for and ends your current session. Continue only if you asked for this link.",
  continueWithLink: "Continue with this link",
  /** Without script nothing runs by itself: the link is spent by the person's click on a plain form. */
  continueWithoutScript: "Continue",
  withoutScript: "If nothing happens, select Continue to sign in with this link.",
  stay: "Keep my current session",
  /** A link another site's page opened by itself (no click of the person's brought it): spent only on a click here. */
  openedByAnotherSite:
    "This sign-in link was opened by another site, not by a click of yours. Continue only if you asked for this link.",
  /** How the page names a session: user and company, or the audience when the user ID is not known. */
  whoIs: ({ name, site, company }: { name: string; site: "client" | "vendor"; company?: string }) =>
    [name || (site === "vendor" ? "a vendor" : "a client"), company].filter(Boolean).join(", "),
} as const;

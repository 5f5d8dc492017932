// Texts of login by link (requirements 2.6, 4.6).
export const linkLoginTexts = {
  heading: "Sign In",
  authenticating: "Authenticating...",
  invalid: "Invalid Login",
  /** Beside the requirements' "Invalid Login": what can make a link fail, and what to do. */
  invalidHint:
    "A sign-in link works once, for a short time, and only for the account it was sent to. Ask for a new link, or sign in with your user ID and password.",
  failed: (error: string) => `Login Failed: ${error}`,
  backToLogin: "Go to the login page",
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
  stay: "Keep my current session",
  /** How the page names a session: user and company, or the audience when the user ID is not known. */
  whoIs: ({ name, site, company }: { name: string; site: "client" | "vendor"; company?: string }) =>
    [name || (site === "vendor" ? "a vendor" : "a client"), company].filter(Boolean).join(", "),
} as const;

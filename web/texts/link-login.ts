// Texts of login by link (SPEC.md 2.6, 4.6).
export const linkLoginTexts = {
  heading: "Sign In",
  authenticating: "Authenticating...",
  invalid: "Invalid Login",
  failed: (error: string) => `Login Failed: ${error}`,
  backToLogin: "Go to the login page",
  /** A bare /login (no uuid): no sign-in was tried, so no "Invalid Login" (issue 14, #10). */
  incompleteHeading: "This sign-in link is incomplete",
  incomplete:
    "The link you followed is missing part of its address. Open the link from your email again, or sign in with your user ID and password.",
  signIn: "Go to the sign-in page",
} as const;

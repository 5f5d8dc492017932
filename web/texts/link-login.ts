// Texts of login by link (SPEC.md 2.6, 4.6).
export const linkLoginTexts = {
  authenticating: "Authenticating...",
  invalid: "Invalid Login",
  failed: (error: string) => `Login Failed: ${error}`,
  backToLogin: "Go to the login page",
} as const;

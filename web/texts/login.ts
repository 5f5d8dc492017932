// Texts of the login page (SPEC.md 2.2, 4.1, 5, 8).
export const loginTexts = {
  tabsLabel: "Login for",
  clientTab: "CLIENT LOGIN",
  vendorTab: "VENDOR LOGIN",
  companyShortName: "Company Short Name",
  userId: "User ID",
  password: "Password",
  rememberMe: "Remember me",
  submit: "Login",
  resetLink: "Reset Password",
  authenticating: "Authenticating...",
  invalidLogin: "Invalid Login",
  companyRequired: "Company Short Name is required.",
  userIdRequired: "User ID is required.",
  passwordRequired: "Password is required.",
  deactivated: (provider: string) =>
    `This account has been deactivated. Please contact ${provider} to restore your account.`,
  support: (phone: string, phoneUk: string, email: string) =>
    `Still having trouble? Please contact us: ${phone} or (UK) ${phoneUk} or email ${email}`,
  signedOut: "You have signed out.",
  /** Follows SPEC.md's session-expired message when the idle timeout ended the session. */
  endedIdle: (minutes: number) => `It ended after ${minutes} minutes without activity.`,
} as const;

// Texts of the login page (requirements 2.2, 4.1, 5, 8).
import { counted } from "#web/texts/plural.ts";

const supportParts = ["Still having trouble? Please contact us: ", " or (UK) ", " or email "] as const;

export const loginTexts = {
  heading: "Sign In",
  tabsLabel: "Sign in as",
  clientTab: "CLIENT LOGIN",
  vendorTab: "VENDOR LOGIN",
  companyShortName: "Company Short Name",
  userId: "User ID",
  password: "Password",
  rememberMe: "Remember me",
  submit: "Sign In",
  resetLink: "Reset Password",
  authenticating: "Authenticating...",
  invalidLogin: "Invalid Login",
  companyRequired: "Company Short Name is required.",
  userIdRequired: "User ID is required.",
  passwordRequired: "Password is required.",
  /** Beside requirements 5's "is required." texts: a field longer than the upstream takes (web/protocol/typed-names.ts). */
  companyTooLong: "Company Short Name is too long.",
  userIdTooLong: "User ID is too long.",
  passwordTooLong: "Password is too long.",
  deactivated: (provider: string) =>
    `This account has been deactivated. Please contact ${provider} to restore your account.`,
  /** requirements 1's sentence, as words around its three contacts, so that each contact can be a link (support.tsx). */
  supportParts: supportParts,
  support: (phone: string, phoneUk: string, email: string) =>
    `${supportParts[0]}${phone}${supportParts[1]}${phoneUk}${supportParts[2]}${email}`,
  showPassword: "Show password",
  signedOut: "You have signed out.",
  /** Follows the requirements' session-expired message when the idle timeout ended the session. */
  endedIdle: (minutes: number) => `It ended after ${counted(minutes, "minute", "minutes")} without activity.`,
} as const;

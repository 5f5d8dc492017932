// Texts of the login page (requirements 2.2, 4.1, 5, 8).
import { counted } from "#web/texts/plural.ts";

const supportParts = ["Still having trouble? Please contact us: ", " or (UK) ", " or email "] as const;

export const loginTexts = {
  heading: "Sign In",
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
  /** requirements 1's sentence, as words around its three contacts, so that each contact can be a link (support.tsx). */
  supportParts: supportParts,
  support: (phone: string, phoneUk: string, email: string) =>
    `${supportParts[0]}${phone}${supportParts[1]}${phoneUk}${supportParts[2]}${email}`,
  showPassword: "Show password",
  signedOut: "You have signed out.",
  /** Follows the requirements' session-expired message when the idle timeout ended the session. */
  endedIdle: (minutes: number) => `It ended after ${counted(minutes, "minute", "minutes")} without activity.`,
  /** Follows the requirements' session-expired message when the absolute lifetime ended the session. */
  endedLifetime: (hours: number) => `It ended after ${counted(hours, "hour", "hours")}, the longest a session lasts.`,
  /** "Sign out" of this session, or "Sign out of all other devices", from another of the person's sessions. */
  endedElsewhere: "You were signed out from another device.",
  /** A password change made in another session ended this one. */
  passwordChanged: "Your password was changed. Please sign in with your new password.",
  /** A password reset (the mailed link) ended every session of the person. */
  passwordReset: "Your password was reset. Please sign in with your new password.",
} as const;

// Texts of the login page (SPEC.md 2.2, 4.1, 5, 8).
import { mfaTexts } from "#web/texts/mfa.ts";
import { counted } from "#web/texts/plural.ts";
import { resetTexts } from "#web/texts/reset.ts";

const supportParts = ["Still having trouble? Please contact us: ", " or (UK) ", " or email "] as const;

const continueToText = (title: string) => `Sign in to continue to ${title}`;

export const loginTexts = {
  heading: "Sign In",
  /** Above the login form when a signed-out person's deep link was kept: where the sign-in leads. */
  continueTo: continueToText,
  /**
   * The login page's title for what it shows: the MFA step, the reset panel, or the login form (the row's title, or
   * where a kept deep link leads). The server's first answer and the island's later changes both read it.
   */
  pageTitle: (shows: "login" | "reset" | "mfa", rowTitle: string, continueTo?: string): string =>
    shows === "mfa"
      ? mfaTexts.heading
      : shows === "reset"
        ? resetTexts.heading
        : continueTo
          ? continueToText(continueTo)
          : rowTitle,
  /** Issue 14: the portal opened over plain http at an address other than localhost. */
  plainHttp:
    "This page was opened over plain http, so your browser will not keep the sign-in. Open the portal's https address, or http://localhost on this machine.",
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
  /** SPEC.md 1's sentence, as words around its three contacts, so that each contact can be a link (support.tsx). */
  supportParts: supportParts,
  support: (phone: string, phoneUk: string, email: string) =>
    `${supportParts[0]}${phone}${supportParts[1]}${phoneUk}${supportParts[2]}${email}`,
  showPassword: "Show password",
  signedOut: "You have signed out.",
  /** Follows SPEC.md's session-expired message when the idle timeout ended the session. */
  endedIdle: (minutes: number) => `It ended after ${counted(minutes, "minute", "minutes")} without activity.`,
} as const;

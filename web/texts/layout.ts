// Texts of the page frame: header, footer, sign out, the idle-timeout warning.
import { brand, documentTitle } from "#web/texts/document-title.ts";

export const layoutTexts = {
  documentTitle,
  brand,
  copyright: (year: number) => `© ${year} ${brand}. All rights reserved.`,
  signOut: "Sign out",
  /** Read before the header's user and company (visually hidden: the two show as a compact chip). */
  signedInAs: "Signed in as",
  /** Between the user and the company, for a screen reader ("alice at ACME"); the chip shows a divider. */
  atCompany: "at",
  /** When neither the user nor the company is known (a link sign-in on a server that does not pass them). */
  accountOf: (site: "client" | "vendor") => (site === "client" ? "Client account" : "Vendor account"),
  /** What the header's account link opens: the person's change-password page, their security part (issue 41). */
  yourAccount: "where you're signed in, the browsers that skip the code, activity and password",
  /** The chip's visible word for where it leads, and the menu's entry to the same page. */
  security: "Security",
  securityMenu: "Security: sign-ins, browsers, password",
  skipToContent: "Skip to content",
  idleWarning: "You will be signed out in one minute because of inactivity.",
  staySignedIn: "Stay signed in",
  signOutNow: "Sign out now",
  dismissIdleWarning: "Dismiss this warning",
  /** Before the idle warning's countdown, which the page's script keeps: "Signing out in 0:42". */
  idleCountdown: "Signing out in",
  /** In the warning's place when a sign-in in another tab of the browser replaced the session this page was shown for. */
  sessionReplaced: "A sign-in in another tab replaced this session.",
  /** After it: the link to the portal as the session signed in now sees it. */
  continueWithNewSignIn: "Continue with the new sign-in",
} as const;

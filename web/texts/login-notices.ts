// Texts the server writes around the login island, not in it: kept out of the island's chunk. Which of them tells
// how a session ended is server/session/why-ended.ts's table of endings.
import { counted } from "#web/texts/plural.ts";

export const loginNotices = {
  /** The portal opened over plain http at an address other than localhost. */
  plainHttp:
    "This page was opened over plain http, so your browser will not keep the sign-in. Open the portal's https address, or http://localhost on this machine.",
  /** Above the login form at `/tax-bridge/login`: this sign-in is in tax-bridge mode, and only it. */
  taxBridge: "Tax-bridge sign-in: clients go on to Submission Report, vendors to Invoices Due.",
  /** Above the login form when a signed-out person's deep link was kept: where the sign-in leads. */
  continueTo: (title: string) => `Sign in to continue to ${title}`,
  /** Follows the requirements' session-expired message when the absolute lifetime ended the session. */
  endedLifetime: (hours: number) => `It ended after ${counted(hours, "hour", "hours")}, the longest a session lasts.`,
  /** "Sign out" of this session, or "Sign out of all other devices", from another of the person's sessions. */
  endedElsewhere: "You were signed out from another device.",
  /** A password change made in another session ended this one. */
  passwordChanged: "Your password was changed. Please sign in with your new password.",
  /** A password reset (the mailed link) ended every session of the person. */
  passwordReset: "Your password was reset. Please sign in with your new password.",
  /** Also the answer of the call or page whose session outgrew the cookie (server/texts.ts). */
  sessionTooLarge:
    "Sign-in could not be completed: the session is too large for this browser to keep. Please contact support.",
} as const;

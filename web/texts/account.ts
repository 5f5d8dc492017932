// Texts of the account-security sections: "Where you're signed in", "Recent security activity", the last sign-in and
// the sign-ins since.

import { DEVICE_TRUST_DAYS } from "#web/protocol/headers.ts";
import { endOthersTexts } from "#web/texts/end-others.ts";
import { errorTexts } from "#web/texts/errors.ts";
import { layoutTexts } from "#web/texts/layout.ts";
import { counted } from "#web/texts/plural.ts";

/** "from 3 addresses"; "from 50+ addresses" past the ones counted. */
const fromAddresses = (addresses: number, more: boolean) =>
  more ? `from ${addresses}+ addresses` : `from ${counted(addresses, "address", "addresses")}`;

/** A failure counted rather than listed (server/stores/failure-tallies.ts): "25 failed sign-in attempts from 3 addresses". */
const countedFailures: Record<string, (count: number) => string> = {
  "sign-in.failed": (count) => counted(count, "failed sign-in attempt", "failed sign-in attempts"),
  "password.test-failed": (count) => counted(count, "wrong current password", "wrong current passwords"),
  "mfa.code-wrong": (count) => counted(count, "wrong verification code", "wrong verification codes"),
};
const failures = (kind: string, count: number, addresses: number, more: boolean) =>
  `${countedFailures[kind]?.(count) ?? `${count} ${kind}`} ${fromAddresses(addresses, more)}`;

export const accountTexts = {
  /** The change-password route's page (requirements 2.5 names its button, not its heading): the word the chip says. */
  pageHeading: layoutTexts.security,
  pageAbout: "Where you're signed in, the browsers that skip the code, your recent activity and your password.",
  /** The security page's own parts, linked at its top by their headings. */
  pageParts: "On this page",
  sessionsHeading: "Where you're signed in",
  currentPassword: "Current Password",
  thisDevice: "This device",
  signOut: "Sign out",
  /** Read after "Sign out" on a session's control (visually hidden: its row shows which session it is). */
  ofSession: (device: string, address: string) => ` of ${device}, ${address}`,
  signOutOf: (device: string) => `Sign out of ${device}`,
  signOutAllHeading: "Sign out everywhere else",
  signOutAllAbout: "This signs out every device listed above except this one.",
  signOutAll: "Sign out of all other devices",
  began: "Signed in",
  lastActive: "Last active",
  none: "No other device is signed in.",
  incomplete: "This list may be incomplete: some sessions could not be read just now.",
  alone:
    "This session is listed on its own: the sign-in link did not say which company it belongs to, so your other sessions and activity are not shown here, and signing out the others does not reach them.",
  trimmed: "Older sessions were signed out: at most 20 are kept.",
  ended: endOthersTexts.ended,
  ending: endOthersTexts.ending,
  wrongPassword: "The current password is not right. No session was signed out.",
  passwordRequired: "Enter your current password to sign out of another device.",
  unknownSession: "That session is not one of yours, or has already ended. No session was signed out.",
  throttled: (seconds: number) => `Too many attempts. Try again in ${counted(seconds, "second", "seconds")}.`,
  /** The password test could not be made: the upstream did not answer (server/actions/password-test.ts). */
  failed: `${errorTexts.actionFailed}. ${errorTexts.outage} No session was signed out.`,
  devicesHeading: "Browsers that skip the code",
  devicesAbout: `A browser where the e-mailed code was accepted signs you in without a code for ${DEVICE_TRUST_DAYS} days after its last code. Forget a browser to be asked for a code there the next time it signs in; changing or resetting your password forgets them all.`,
  devicesNone: "No browser skips the code.",
  devicesIncomplete: "This list may be incomplete: some browsers could not be read just now.",
  thisBrowser: "This browser",
  firstTrusted: "First trusted",
  lastTrusted: "Last trusted",
  forget: "Forget",
  /** Read after "Forget" (visually hidden: its row shows which browser it is). */
  ofDevice: (device: string, address: string) => ` ${device}, ${address}`,
  forgetAll: "Forget all",
  /** After "Forget" (one browser) or "Forget all": plain words for what the next sign-in there does. */
  forgotten: (count: number) =>
    count === 1
      ? "Forgotten. That browser will be asked for a code at its next sign-in."
      : `${counted(count, "browser", "browsers")} forgotten. Each will be asked for a code at its next sign-in.`,
  forgottenThis: "Forgotten. This browser will be asked for a code at its next sign-in.",
  activityHeading: "Recent security activity",
  activityNone: "No recent activity.",
  showMore: "Show more",
  activityIncomplete: "This list may be incomplete: the activity could not be read just now.",
  lastSignIn: (when: string, device: string) => `Last signed in ${when} from ${device}.`,
  failedSince: (count: number, addresses: number, more: boolean) =>
    `${failures("sign-in.failed", count, addresses, more)} since then.`,
  alsoSignedInSince: (signIns: string[]) => `Also signed in since: ${signIns.join("; ")}.`,
  signInElsewhere: (device: string, when: string) => `${device}, ${when}`,
  failures,
  between: (first: string, last: string) => `${first} to ${last}`,
  latest: (device: string, address: string) => `The latest from ${device}, ${address}`,
  notYou: "Not you?",
  changePassword: "Change your password",
  events: {
    "sign-in.passed": "Password accepted",
    "sign-in.failed": "Failed sign-in attempt",
    "sign-in.deactivated": "Sign-in to a deactivated account",
    "sign-in.link": "Signed in with a link",
    "mfa.code-sent": "Verification code sent",
    "mfa.code-wrong": "Wrong verification code",
    "mfa.locked-out": "Too many wrong verification codes",
    "mfa.passed": "Signed in with password and code",
    "mfa.trusted-browser": "Signed in on a trusted browser",
    "password.test-failed": "Wrong current password",
    "password.changed": "Password changed",
    "password.reset": "Password reset",
    "sign-out": "Signed out",
    "session-ended.by-person": "Signed out from another device",
    "session-ended.password-changed": "Signed out by a password change",
    "session-ended.password-reset": "Signed out by a password reset",
    "session-ended.upstream-refused": "Session expired",
    "session-ended.idle": "Signed out after inactivity",
    "session-ended.lifetime": "Session reached its time limit",
    "session-ended.limit": "Oldest session signed out",
  } as Record<string, string>,
};

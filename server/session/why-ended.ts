// Why a session ended: one table of every way a session ends, its security event and the words every tab shows of it
// (the sign-in page, and a page whose session ended, told by the page's script). The reason itself is the session's
// record's (server/session/record.ts, `ended`), written once when the session ended.
import type { SecurityEvent } from "#server/account/security-log.ts";
import type { Config } from "#server/config.ts";
import type { EndReason } from "#web/protocol/session-end.ts";
import { errorTexts } from "#web/texts/errors.ts";
import { loginNotices } from "#web/texts/login-notices.ts";
import { loginTexts } from "#web/texts/login-screen.ts";
import { mfaTexts } from "#web/texts/mfa.ts";

/**
 * Every way a session ends: its event in the person's activity, written once by whoever ends it
 * (server/session/lifecycle.ts, `endSession`), and the words every tab shows of it at this portal's limits (none: the
 * person chose the end).
 */
const endings: Record<EndReason, Ending> = {
  "signed-out": { event: "sign-out", words: () => loginTexts.signedOut },
  replaced: { words: () => undefined },
  revoked: { words: () => errorTexts.sessionExpired },
  limit: { event: "session-ended.limit", words: () => errorTexts.sessionExpired },
  "ended-elsewhere": { event: "session-ended.by-person", words: () => loginNotices.endedElsewhere },
  "password-changed": { event: "session-ended.password-changed", words: () => loginNotices.passwordChanged },
  "password-reset": { event: "session-ended.password-reset", words: () => loginNotices.passwordReset },
  idle: { event: "session-ended.idle", words: (at) => expired(loginTexts.endedIdle(at.idleMinutes)) },
  lifetime: {
    event: "session-ended.lifetime",
    words: (at) => expired(loginNotices.endedLifetime(at.maxHours)),
  },
  "upstream-refused": { event: "session-ended.upstream-refused", words: () => errorTexts.sessionExpired },
  "code-not-sent": { words: () => errorTexts.sessionExpired },
  "mfa-attempts": { words: () => mfaTexts.attemptsExhausted },
  "too-large": { words: () => loginNotices.sessionTooLarge },
  "not-signed-in": { words: () => errorTexts.sessionExpired },
};
type Limits = { idleMinutes: number; maxHours: number };
type Ending = { event?: SecurityEvent; words: (limits: Limits) => string | undefined };
const expired = (why: string) => `${errorTexts.sessionExpired}. ${why}`;

/** The event whoever ends a signed-in session records for `reason` (none: a step of signing in, or no event). */
export const endEvent = (reason: EndReason): SecurityEvent | undefined => endings[reason].event;

/** What the sign-in page and a page whose session ended say of `reason` (nothing for an end the person chose). */
export const endNotice = (config: Config, reason: EndReason): string | undefined =>
  endings[reason].words({ idleMinutes: config.session.idleSeconds / 60, maxHours: config.session.maxSeconds / 3600 });

// Why a session ended: one table of every way a session ends, its security event and the words every tab shows of it
// (the sign-in page, and a page whose session ended, told by the page's script); and a revoked session's own request,
// which learns from its person's security activity which ending named it (another device, a password change, a reset).
import type { FastifyRequest } from "fastify";
import { personOf } from "#server/account/person.ts";
import { type SecurityEvent, sessionDigest } from "#server/account/security-log.ts";
import { accountOf } from "#server/account/state.ts";
import type { Config } from "#server/config.ts";
import { sessionId } from "#server/session/standing.ts";
import type { EndReason } from "#web/protocol/session-end.ts";
import { errorTexts } from "#web/texts/errors.ts";
import { loginNotices } from "#web/texts/login-notices.ts";
import { loginTexts } from "#web/texts/login-screen.ts";
import { mfaTexts } from "#web/texts/mfa.ts";

/**
 * Every way a session ends: its event in the person's activity, `own` when the ending session's own request records it
 * (server/account/sessions.ts; the request that ended it records the others: a sign-out, another device, a password
 * change or reset), and the words every tab shows of it at this portal's limits (none: the person chose the end).
 */
const endings: Record<EndReason, Ending> = {
  "signed-out": { event: "sign-out", words: () => loginTexts.signedOut },
  replaced: { words: () => undefined },
  revoked: { words: () => errorTexts.sessionExpired },
  "ended-elsewhere": { event: "session-ended.by-person", words: () => loginNotices.endedElsewhere },
  "password-changed": { event: "session-ended.password-changed", words: () => loginNotices.passwordChanged },
  "password-reset": { event: "session-ended.password-reset", words: () => loginNotices.passwordReset },
  idle: { event: "session-ended.idle", own: true, words: (at) => expired(loginTexts.endedIdle(at.idleMinutes)) },
  lifetime: {
    event: "session-ended.lifetime",
    own: true,
    words: (at) => expired(loginNotices.endedLifetime(at.maxHours)),
  },
  "upstream-refused": { event: "session-ended.upstream-refused", own: true, words: () => errorTexts.sessionExpired },
  "code-not-sent": { words: () => errorTexts.sessionExpired },
  "mfa-attempts": { words: () => mfaTexts.attemptsExhausted },
  "too-large": { words: () => loginNotices.sessionTooLarge },
  "not-signed-in": { words: () => errorTexts.sessionExpired },
};
type Limits = { idleMinutes: number; maxHours: number };
type Ending = { event?: SecurityEvent; own?: true; words: (limits: Limits) => string | undefined };
const expired = (why: string) => `${errorTexts.sessionExpired}. ${why}`;

/** The event the ending session's own request records for `reason` (none: no event, or another request records it). */
export const ownEndEvent = (reason: EndReason): SecurityEvent | undefined =>
  endings[reason].own ? endings[reason].event : undefined;

/** The table read the other way: the ending an event of the activity names. */
const named = new Map(
  Object.entries(endings).flatMap(([reason, { event }]) => (event ? [[event, reason as EndReason]] : [])),
);

/**
 * Why this request's revoked session was ended, as the person's activity names it (the newest ending of it, another
 * request's or, for another tab's copy of the cookie, its own); `revoked` when it names none (a sign-in past the bound,
 * a session Redis's outage kept out of the list, an activity that could not be read, or not yet: Redis is written after
 * the revocation). Read only for a request whose session was revoked, never on the path of a live one. Never rejects.
 */
export async function whyRevoked(request: FastifyRequest): Promise<EndReason> {
  const sid = sessionId(request);
  const auth = request.auth;
  if (!sid || auth?.stage !== "signed-in") return "revoked";
  const session = sessionDigest(sid);
  const { events } = await accountOf(request).activity.recent(personOf(auth));
  for (const { event, session: about } of events) {
    const reason = named.get(event as SecurityEvent);
    if (reason && about === session) return reason;
  }
  return "revoked";
}

/** What the sign-in page and a page whose session ended say of `reason` (nothing for an end the person chose). */
export const endNotice = (config: Config, reason: EndReason): string | undefined =>
  endings[reason].words({ idleMinutes: config.session.idleSeconds / 60, maxHours: config.session.maxSeconds / 3600 });

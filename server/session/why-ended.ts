// Why a session ended, found and worded: a revoked session's own request learns from its person's security activity
// which ending named it (another device, a password change, a reset), and every ending is said in the sign-in page's
// words at this portal's limits, by the sign-in page and by a page's script alike.
import type { FastifyRequest } from "fastify";
import { personOf } from "#server/account/person.ts";
import { type SecurityEvent, sessionDigest } from "#server/account/security-log.ts";
import { accountOf } from "#server/account/state.ts";
import type { Config } from "#server/config.ts";
import { sessionId } from "#server/session/standing.ts";
import type { EndReason } from "#web/protocol/session-end.ts";
import { loginNotices } from "#web/texts/login-notices.ts";

/**
 * The endings the activity records against a session (server/account/sessions.ts), by what they mean: those another
 * request made (a sign-out in another tab of the browser too), and those the session's own request found (another tab's copy of its cookie, asking at the same time,
 * finds the session revoked by that request, and is told the same).
 */
const namedEndings: Partial<Record<SecurityEvent, EndReason>> = {
  "sign-out": "signed-out",
  "session-ended.by-person": "ended-elsewhere",
  "session-ended.password-changed": "password-changed",
  "session-ended.password-reset": "password-reset",
  "session-ended.idle": "idle",
  "session-ended.lifetime": "lifetime",
  "session-ended.upstream-refused": "upstream-refused",
};

/**
 * Why this request's revoked session was ended, as the person's activity names it (the newest ending of it);
 * `revoked` when it names none (a sign-in past the bound, a session Redis's outage kept out of the list, an activity
 * that could not be read, or not yet: Redis is written after the revocation). Read only for a request whose session
 * was revoked, never on the path of a live one. Never rejects, as the stores never do.
 */
export async function whyRevoked(request: FastifyRequest): Promise<EndReason> {
  const account = accountOf(request);
  const sid = sessionId(request);
  const auth = request.auth;
  if (!sid || auth?.stage !== "signed-in") return "revoked";
  const session = sessionDigest(sid);
  const { events } = await account.activity.recent(personOf(auth));
  for (const { event, session: about } of events) {
    const reason = namedEndings[event as SecurityEvent];
    if (reason && about === session) return reason;
  }
  return "revoked";
}

/** What the sign-in page and a page whose session ended say of `reason` (nothing for an end the person chose). */
export const endNotice = (config: Config, reason: EndReason): string | undefined =>
  loginNotices.sessionEnded(reason, {
    idleMinutes: config.session.idleSeconds / 60,
    maxHours: config.session.maxSeconds / 3600,
  });

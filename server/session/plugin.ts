// The session: @fastify/secure-session's encrypted HttpOnly cookie, registered only in the scope of the routes that
// read it (pages, /api, /session/*, /pdfs/*), with the idle timeout, the absolute lifetime and revocation checked once.
import secureSession from "@fastify/secure-session";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { personOf } from "#server/account/person.ts";
import type { AppContext } from "#server/context.ts";
import { problem } from "#server/errors.ts";
import { personActed } from "#server/session/activity.ts";
import { RESEAL_GRANULARITY_MS, readAuth } from "#server/session/fields.ts";
import { expire } from "#server/session/lifecycle.ts";
import { sessionId, sessionTimes } from "#server/session/standing.ts";
import { markSeen } from "#server/session/writes.ts";
import { serverTexts } from "#server/texts.ts";
import type { EndReason } from "#web/protocol/session-end.ts";

export const sessionCookieName = (secure: boolean) => (secure ? "__Host-portal-session" : "portal-session");

/** What a browser keeps of one cookie (RFC 6265 6.1), less room for the cookie's name and attributes. */
export const MAX_SEALED_SESSION = 4096 - 160;

/**
 * The sealed session as its cookie carries it. A seal is base64 and one ";", and of those only ";" may not stand in a
 * cookie (RFC 6265 cookie-octet): escaping "+" and "/" as well, as the default encoding does, made a cookie's size vary
 * by chance from one seal to the next, so a session that fit at sign-in could overflow at its next write.
 */
export const sessionCookieValue = (sealed: string): string => sealed.replace(";", "%3B");

/** The length of the session cookie's value in an answer's `Set-Cookie` (0 when the answer sets none). */
function sessionCookieBytes(header: ReturnType<FastifyReply["getHeader"]>, name: string): number {
  const prefix = `${name}=`;
  for (const line of [header ?? []].flat()) {
    const text = String(line);
    if (!text.startsWith(prefix)) continue;
    const end = text.indexOf(";");
    return (end === -1 ? text.length : end) - prefix.length;
  }
  return 0;
}

/** The session's cookie value as it would be written now, in bytes. */
const sealedSize = (request: FastifyRequest): number =>
  sessionCookieValue(request.server.encodeSecureSession(request.session)).length;

/**
 * Whether the session, with `room` bytes more to come, still fits what a browser keeps. One that does not ends at once,
 * and the person is told (never a cookie silently dropped): a sign-in whose token leaves no room is refused here, and
 * the onSend hook below guards every later write the same way.
 */
export function fitsCookie(request: FastifyRequest, room = 0): boolean {
  const bytes = sealedSize(request);
  if (bytes + room <= MAX_SEALED_SESSION) return true;
  request.log.error({ event: "session-too-large", bytes }, "session not stored");
  expire(request, "signed-out");
  return false;
}

export const sessionPlugin = fp<{ context: AppContext }>(async (app: FastifyInstance, { context }) => {
  const { config, now, refusedTokens } = context;
  const maxSeconds = config.session.maxSeconds;
  // `seen` is written at most once a minute, or ten times in an idle limit shorter than ten minutes.
  const resealMs = Math.min(RESEAL_GRANULARITY_MS, (config.session.idleSeconds * 1000) / 10);
  const cookieName = sessionCookieName(config.cookieSecure);
  const cookieOptions = {
    path: "/",
    httpOnly: true,
    secure: config.cookieSecure,
    sameSite: "strict",
    maxAge: maxSeconds,
    encode: sessionCookieValue,
  } as const;
  // Added before @fastify/secure-session's own onSend, so what it writes is sealed: a person's action restarts the idle
  // time, decided once the route has answered (server/session/activity.ts, `personActed`).
  app.addHook("onSend", (request, reply, payload, done) => {
    if (request.auth && personActed(request, reply)) markSeen(request, now(), resealMs);
    done(null, payload);
  });
  await app.register(secureSession, {
    key: config.sessionKeys, // the first seals; the others still open (rotation)
    cookieName,
    expiry: maxSeconds,
    cookie: cookieOptions,
  });
  // Added after @fastify/secure-session's own onSend, so it measures the cookie that was sealed (sealing twice per
  // answer was a fifth of an /api call's CPU). A session grown past what a browser keeps (a large token, then
  // permissions and a passed password test) ends here, and the answer says so: a browser would otherwise drop the cookie
  // silently and keep the previous one.
  app.addHook("onSend", (request, reply, payload, done) => {
    const bytes = sessionCookieBytes(reply.getHeader("set-cookie"), cookieName);
    if (bytes <= MAX_SEALED_SESSION) return done(null, payload);
    request.log.error({ event: "session-too-large", bytes }, "session not stored");
    expire(request, "too-large");
    reply.removeHeader("set-cookie");
    if (request.session.deleted) reply.clearCookie(cookieName, cookieOptions);
    else reply.setCookie(cookieName, app.encodeSecureSession(request.session), cookieOptions);
    const { code, message } = serverTexts.sessionTooLarge;
    // The answer says so in its own kind: JSON for a call, a way back to the sign-in page for a page.
    if (String(reply.getHeader("content-type") ?? "").startsWith("application/json")) {
      reply.code(502).type("application/json; charset=utf-8");
      return done(null, JSON.stringify(problem(message, code)));
    }
    // A compressed page's body is dropped too: nothing of it, nor its encoding, is sent.
    reply.code(303).header("location", "/").removeHeader("content-type").removeHeader("content-encoding");
    done(null, "");
  });
  app.decorateRequest("auth", undefined);

  app.addHook("onRequest", (request, _reply, done) => {
    request.auth = readAuth(request);
    endIfOver(request);
    done();
  });

  // Asked again once the body has arrived: a request can hold its body back while its session is signed out elsewhere.
  app.addHook("preHandler", (request, _reply, done) => {
    const sid = sessionId(request);
    if (sid && request.auth && (app.revocations.has(sid) || markedEnded(request, sid))) expire(request, "revoked");
    done();
  });

  /** A revoked, refused, timed-out or too old session ends here. */
  function endIfOver(request: FastifyRequest): void {
    const reason = endReason(request);
    if (reason) expire(request, reason);
  }

  /** "Sign out of all other devices" from another of the person's sessions: their mark, held by every replica. */
  function markedEnded(request: FastifyRequest, sid: string): boolean {
    const auth = request.auth;
    return auth !== undefined && app.account?.marks.ends(personOf(auth), sid, sessionTimes(request).born) === true;
  }

  function endReason(request: FastifyRequest): EndReason | undefined {
    const sid = sessionId(request);
    if (sid && app.revocations.has(sid)) return "revoked";
    const auth = request.auth;
    if (!auth) return undefined;
    // A token the upstream refused on one of the server's own calls (requirements 4.5).
    if (refusedTokens.has(auth.token)) return "upstream-refused";
    const time = now();
    const { born, seen } = sessionTimes(request);
    if (sid && markedEnded(request, sid)) return "revoked";
    if (time - born > maxSeconds * 1000) return "lifetime";
    if (time - seen > config.session.idleSeconds * 1000) return "idle";
    return undefined;
  }
});

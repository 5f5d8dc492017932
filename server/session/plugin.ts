// The session: @fastify/secure-session's encrypted HttpOnly cookie, registered only in the scope of the routes that
// read it (pages, /api, /session/*, /pdfs/*), with the idle timeout, the absolute lifetime and revocation checked once,
// and what a request another site started may do with it decided once.
import secureSession from "@fastify/secure-session";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { personOf } from "#server/account/person.ts";
import type { AppContext } from "#server/context.ts";
import { sessionUse } from "#server/plugins/csrf.ts";
import { personActed } from "#server/session/activity.ts";
import { mayWrite, RESEAL_GRANULARITY_MS, readAuth, readOnlySession } from "#server/session/fields.ts";
import { endRevoked, expire } from "#server/session/lifecycle.ts";
import { SameSiteCookies } from "#server/session/same-site-cookie.ts";
import { sessionId, sessionTimes } from "#server/session/standing.ts";
import { markSeen } from "#server/session/writes.ts";
import type { EndReason } from "#web/protocol/session-end.ts";

export const sessionCookieName = (secure: boolean) => (secure ? "__Host-portal-session" : "portal-session");

/**
 * The sealed session as its cookie carries it. A seal is base64 and one ";", and of those only ";" may not stand in a
 * cookie (RFC 6265 cookie-octet): escaping "+" and "/" as well, as the default encoding does, made a cookie's size vary
 * by chance from one seal to the next, so a session that fit at sign-in could overflow at its next write.
 */
export const sessionCookieValue = (sealed: string): string => sealed.replace(";", "%3B");

export const sessionPlugin = fp<{ context: AppContext }>(async (app: FastifyInstance, { context }) => {
  const { config, now, refusals } = context;
  const maxSeconds = config.session.maxSeconds;
  // `seen` is written at most once a minute, or ten times in an idle limit shorter than ten minutes.
  const resealMs = Math.min(RESEAL_GRANULARITY_MS, (config.session.idleSeconds * 1000) / 10);
  // `Lax`: a link from another site opens the person's page; what another site starts never writes the session, and
  // only this site's requests carry its Strict partner (server/session/same-site-cookie.ts, SECURITY.md).
  const cookieOptions = {
    path: "/",
    httpOnly: true,
    secure: config.cookieSecure,
    sameSite: "lax",
    maxAge: maxSeconds,
    encode: sessionCookieValue,
  } as const;
  const sameSite = new SameSiteCookies(config);
  // Added before @fastify/secure-session's own onSend, so what it writes is sealed: a person's action restarts the idle
  // time, decided once the route has answered (server/session/activity.ts, `personActed`). A session with an id has
  // its Strict partner beside it, written when the browser does not hold it yet (a new id at each step of signing in).
  app.addHook("onSend", (request, reply, payload, done) => {
    // Nothing to write for a request refused before its session was read (another site's POST), or that may not write.
    if (!request.session || !mayWrite(request)) return done(null, payload);
    if (request.auth && personActed(request, reply)) markSeen(request, now(), resealMs);
    const sid = sessionId(request);
    if (sid && !sameSite.carried(request, sid)) sameSite.give(reply, sid);
    done(null, payload);
  });
  await app.register(secureSession, {
    key: config.sessionKeys, // the first seals; the others still open (rotation)
    cookieName: sessionCookieName(config.cookieSecure),
    expiry: maxSeconds,
    cookie: cookieOptions,
  });
  app.decorateRequest("auth", undefined);

  // What this request may do with the session, decided once before anything reads it (server/plugins/csrf.ts). One
  // that may not see it holds an empty session in its place; one that may not write it only reads.
  app.addHook("onRequest", (request, _reply, done) => {
    const use = sessionUse(request, () => {
      const sid = sessionId(request);
      return sid === undefined || sameSite.carried(request, sid); // no session to protect, or this site's request
    });
    if (use === "none") request.session = app.createSecureSession({});
    if (use !== "write") readOnlySession(request);
    request.auth = readAuth(request);
    endIfOver(request, done);
  });

  // Asked again once the body has arrived: a request can hold its body back while its session is signed out elsewhere.
  app.addHook("preHandler", (request, _reply, done) => {
    const sid = sessionId(request);
    if (sid && request.auth && (app.revocations.has(sid) || markedEnded(request, sid))) ended(request, done);
    else done();
  });

  /** A revoked, refused, timed-out or too old session ends here. */
  function endIfOver(request: FastifyRequest, done: () => void): void {
    const sid = sessionId(request);
    const revoked = sid !== undefined && app.revocations.has(sid);
    // A token the upstream refused on one of the server's own calls is ended by its owner
    // (server/session/upstream-refusal.ts); otherwise the reason, if any, ends the session here.
    const refused = !revoked && refusals.endIfRefused(request);
    const reason = revoked ? "revoked" : refused ? undefined : endReason(request, sid);
    if (reason === "revoked") ended(request, done);
    else {
      if (reason) expire(request, reason);
      done();
    }
  }

  /** A session ended elsewhere: which ending it was is looked up first (server/session/why-ended.ts). */
  const ended = (request: FastifyRequest, done: (error?: Error) => void) =>
    void endRevoked(request).then(() => done(), done);

  /** "Sign out of all other devices" from another of the person's sessions: their mark, held by every replica. */
  function markedEnded(request: FastifyRequest, sid: string): boolean {
    const auth = request.auth;
    return auth !== undefined && app.account.marks.ends(personOf(auth), sid, sessionTimes(request).born);
  }

  function endReason(request: FastifyRequest, sid: string | undefined): EndReason | undefined {
    if (!request.auth) return undefined;
    const time = now();
    const { born, seen } = sessionTimes(request);
    if (sid && markedEnded(request, sid)) return "revoked";
    if (time - born > maxSeconds * 1000) return "lifetime";
    if (time - seen > config.session.idleSeconds * 1000) return "idle";
    return undefined;
  }
});

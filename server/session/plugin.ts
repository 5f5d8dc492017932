// The session: @fastify/secure-session's encrypted HttpOnly cookie carrying the id of the session's record in the
// ledger (server/stores/ledger.ts), registered only in the scope of the routes that read it (pages, /api, /session/*,
// /pdfs/*). The record is read once per request; its ending, the idle timeout and the absolute lifetime are checked
// once, and what a request another site started may do with it is decided once.
//
// What restarts the idle time (`personActed`): a person's action (a navigation, a submitted form, an /api call, "Stay
// signed in") that the route accepted, never a refusal, a HEAD, a prefetch or prerender, a request another site
// started, or a load the browser makes by itself. Those loads are the pages' own Refresh: at the idle limit to
// /session/idle (a route marked `activity: false`) and the redirect back from it, or the checking page asking again.
// Each of those addresses carries a marker this module adds and reads, so the browser, not the person, is recognised;
// the same marker tells the loaders whether the person opened a page themselves (`personOpened`).
import secureSession from "@fastify/secure-session";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { AppContext } from "#server/context.ts";
import { sessionUse } from "#server/plugins/csrf.ts";
import { Refusal } from "#server/plugins/errors.ts";
import { SameSiteCookie } from "#server/session/cookie-mac.ts";
import { mayWrite, readOnlySession, SEEN_GRANULARITY_MS, set } from "#server/session/fields.ts";
import { expire } from "#server/session/lifecycle.ts";
import { markSeen } from "#server/session/writes.ts";
import { UNAVAILABLE } from "#server/stores/ledger.ts";
import { serverTexts } from "#server/texts.ts";
import type { EndReason } from "#web/protocol/session-end.ts";

export const sessionCookieName = (secure: boolean) => (secure ? "__Host-portal-session" : "portal-session");

/** Seconds a request is asked to wait when its session's record cannot be read (Redis away, and this replica new to it). */
export const TRY_AGAIN_SECONDS = 5;

declare module "fastify" {
  interface FastifyContextConfig {
    /** False on a route that a page calls by itself (not the person): it does not restart the idle time. */
    activity?: boolean;
  }
}

/** The query parameter that marks a load the browser makes by itself. */
export const BY_ITSELF = "by-itself";

/** `path` (a same-origin path, maybe with a query or fragment) as the browser loads it by itself. */
export function byItself(path: string): string {
  const hash = path.indexOf("#");
  const [rest, fragment] = hash === -1 ? [path, ""] : [path.slice(0, hash), path.slice(hash)];
  if (new URLSearchParams(rest.split("?")[1] ?? "").has(BY_ITSELF)) return path;
  return `${rest}${rest.includes("?") ? "&" : "?"}${BY_ITSELF}${fragment}`;
}

/**
 * Whether the person opened this page themselves: not another site (the session is only read), not a navigation the
 * browser made without their action (no `Sec-Fetch-User`: another page's script, a refresh), nor a page's own load.
 * Only then does the MFA step send a code as it opens: a page another site opened would mail one, spend the person's
 * allowance and void the code she is about to type.
 */
export function personOpened(request: FastifyRequest): boolean {
  const { "sec-fetch-mode": mode, "sec-fetch-user": user } = request.headers;
  if (!mayWrite(request) || (mode === "navigate" && user !== "?1")) return false;
  const query = request.url.indexOf("?");
  return query === -1 || !new URLSearchParams(request.url.slice(query + 1)).has(BY_ITSELF);
}

/** What the browser fetches ahead of the person (Speculation Rules, `<link rel=prefetch>`): `Sec-Purpose` or `Purpose`. */
const speculative = (value: string | string[] | undefined) => /prefetch|prerender/i.test(String(value ?? ""));

/**
 * Whether this request is a person's action: only then does the idle time start again. Decided on the answer: a
 * refusal (any status of 400 and above), a HEAD or OPTIONS, and a load the browser made ahead of the person are not.
 */
export function personActed(request: FastifyRequest, reply: FastifyReply): boolean {
  // A request another site started, a link followed included, is not counted (docs/decisions.md, "What restarts the
  // idle time"): another site can send the browser to a page without the person, and it would keep an unattended
  // session alive.
  if (!mayWrite(request)) return false;
  if (reply.statusCode >= 400 || request.method === "HEAD" || request.method === "OPTIONS") return false;
  if (speculative(request.headers["sec-purpose"]) || speculative(request.headers.purpose)) return false;
  if (request.routeOptions.config.activity === false) return false;
  const query = request.url.indexOf("?");
  return query === -1 || !new URLSearchParams(request.url.slice(query + 1)).has(BY_ITSELF);
}

export const sessionPlugin = fp<{ context: AppContext }>(async (app: FastifyInstance, { context }) => {
  const { config, now } = context;
  const maxSeconds = config.session.maxSeconds;
  // `seen` is written at most once a minute, or ten times in an idle limit shorter than ten minutes.
  const seenEveryMs = Math.min(SEEN_GRANULARITY_MS, (config.session.idleSeconds * 1000) / 10);
  // `Lax`: a link from another site opens the person's page; what another site starts never writes the session, and
  // only this site's requests carry its Strict partner (server/session/cookie-mac.ts, SECURITY.md).
  const cookieOptions = {
    path: "/",
    httpOnly: true,
    secure: config.cookieSecure,
    sameSite: "lax",
    maxAge: maxSeconds,
  } as const;
  const sameSite = new SameSiteCookie(config.sessionKeys, cookieOptions);
  // Added before @fastify/secure-session's own onSend, so what it writes is sealed: a person's action restarts the idle
  // time, decided once the route has answered (`personActed`), and the record is written back once. A session with an
  // id has its Strict partner beside it, written when the browser does not hold it yet.
  app.addHook("onSend", (request, reply, payload, done) => {
    if (!request.session || !mayWrite(request)) return done(null, payload);
    if (request.auth && personActed(request, reply)) markSeen(request, now(), seenEveryMs);
    const record = request.record;
    if (record?.changed) app.ledger.write(record.id, record.value);
    if (record && !sameSite.carried(request, record.id)) sameSite.give(reply, record.id);
    done(null, payload);
  });
  await app.register(secureSession, {
    key: config.sessionKeys, // the first seals; the others still open (rotation)
    cookieName: sessionCookieName(config.cookieSecure),
    expiry: maxSeconds,
    cookie: cookieOptions,
  });
  app.decorateRequest("auth", undefined);
  app.decorateRequest("record", undefined);

  // What this request may do with the session, decided once before anything reads it (server/plugins/csrf.ts). One
  // that may not see it holds an empty session in its place; one that may not write it only reads.
  app.addHook("onRequest", async (request) => {
    const use = sessionUse(request, () => {
      const sid = request.session.get("sid");
      return sid === undefined || sameSite.carried(request, sid); // no session to protect, or this site's request
    });
    if (use === "none") request.session = app.createSecureSession({});
    if (use !== "write") readOnlySession(request);
    const id = request.session.get("sid");
    if (id === undefined) return;
    const found = await app.ledger.read(id);
    if (found === UNAVAILABLE) return tryAgain();
    if (found === undefined) return gone(request);
    request.record = { id, value: found, changed: false };
    request.auth = found.ended ? undefined : found.auth;
    const reason = found.ended?.reason ?? over(found.born, found.seen);
    if (reason) expire(request, reason, { told: false });
  });

  // Asked again once the body has arrived: a request can hold its body back while its session is signed out elsewhere.
  // One with no body (a GET, a HEAD) was read a moment ago: nothing to ask again.
  app.addHook("preHandler", async (request) => {
    const record = request.record;
    if (!record || !request.auth || request.method === "GET" || request.method === "HEAD") return;
    const found = await app.ledger.read(record.id);
    if (found === UNAVAILABLE) return tryAgain();
    if (found?.ended) expire(request, found.ended.reason, { told: false });
  });

  /** The idle limit or the absolute lifetime, when the session is past one. */
  function over(born: number, seen: number): EndReason | undefined {
    const time = now();
    if (time - born > maxSeconds * 1000) return "lifetime";
    if (time - seen > config.session.idleSeconds * 1000) return "idle";
    return undefined;
  }

  /**
   * A cookie whose record the ledger does not hold: kept in another process's memory before a restart, or evicted.
   * The session is over; the sign-in page says so.
   */
  function gone(request: FastifyRequest): void {
    if (!mayWrite(request)) return;
    request.session.regenerate([]);
    set(request, "flash", { ended: "revoked" });
  }

  /** The record is in Redis, which cannot answer now: neither ended nor guessed, the person tries again shortly. */
  function tryAgain(): never {
    throw new Refusal(503, serverTexts.sessionUnavailable.message, serverTexts.sessionUnavailable.code, {
      "retry-after": String(TRY_AGAIN_SECONDS),
    });
  }
});

// The session: @fastify/secure-session's encrypted HttpOnly cookie, registered only in the scope of the routes that
// read it (pages, /api, /session/*, /pdfs/*), with the idle timeout, the absolute lifetime and revocation checked once.
// A cookie value opened lately is not opened again: its contents are kept (a bounded decode cache, by the value).
import fastifyCookie, { type CookieSerializeOptions, type ParseOptions } from "@fastify/cookie";
import secureSession from "@fastify/secure-session";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { LRUCache } from "lru-cache";
import type { AppContext } from "#server/context.ts";
import {
  type Auth,
  type EndReason,
  expire,
  markSeen,
  readAuth,
  sessionId,
  sessionTimes,
} from "#server/session/data.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** False on a route that a page calls by itself (not the person): it does not restart the idle time. */
    activity?: boolean;
  }
}

/** `seen` is written at most this often, so a page view does not re-seal the cookie every time. */
const SEEN_GRANULARITY_MS = 60_000;

/** Cookie values whose sessions are kept opened, per app; beyond this the least recently used goes. */
export const MAX_OPENED_SESSIONS = 1_000;

/**
 * What a cookie value opened to: the session's fields (frozen, shared by every request that sends this value; each
 * request's session is a copy, so its writes are its own), whether an older key opened it, and its auth once read.
 */
type Opened = {
  value: string;
  fields: Readonly<Record<string, unknown>>;
  rotated: boolean;
  auth?: Auth | undefined;
};

declare module "fastify" {
  interface FastifyRequest {
    /** This request's cookie value, when its session was found opened already. */
    openedSession: Opened | undefined;
  }
}

/**
 * Values kept by a long string (a cookie of about 2 KB), the least recently used going first. A Map hashes its key
 * whole at every lookup (about 4 µs for a fresh 2 KB string); here the key is the string's last characters, the
 * seal's random nonce, and a hit is then compared whole, so a different string never gets another's value.
 */
class ByLongString<V> {
  static readonly TAIL = 48;
  readonly #entries: LRUCache<string, { whole: string; value: V }>;

  constructor(max: number) {
    this.#entries = new LRUCache({ max });
  }

  get(whole: string): V | undefined {
    const entry = this.#entries.get(whole.slice(-ByLongString.TAIL));
    return entry?.whole === whole ? entry.value : undefined;
  }

  set(whole: string, value: V): void {
    this.#entries.set(whole.slice(-ByLongString.TAIL), { whole, value });
  }

  delete(whole: string): void {
    if (this.get(whole) !== undefined) this.#entries.delete(whole.slice(-ByLongString.TAIL));
  }
}

/**
 * A sealed session as a cookie value: secure-session writes base64 (its `+`, `/` and `=` are cookie octets, RFC 6265
 * 4.1.1), then `;` and the nonce. Only the `;` is escaped, where encodeURIComponent would escape about 70 characters
 * of every 2 KB; decodeURIComponent (the cookie package's decoding, below) reads both forms alike.
 */
export const encodeSealed = (value: string) => value.replaceAll(";", "%3B");

/** Shorter cookie values are decoded every time: it is cheap. */
const DECODE_KEPT_FROM = 256;

/**
 * @fastify/cookie's decoding (the cookie package's own: decodeURIComponent when there is a `%`, the value as it is when
 * that fails), with long values' results kept: the session's URI-encoded 2 KB is decoded once, not per request. The
 * decoded string is the same object each time, so the session's lookup below does not hash it again either.
 */
function keptDecoder(max: number): (value: string) => string {
  const decoded = new ByLongString<string>(max);
  const decode = (value: string) => {
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  };
  return (value) => {
    if (!value.includes("%")) return value;
    if (value.length < DECODE_KEPT_FROM) return decode(value);
    let result = decoded.get(value);
    if (result === undefined) {
      result = decode(value);
      decoded.set(value, result);
    }
    return result;
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

export const sessionCookieName = (secure: boolean) => (secure ? "__Host-portal-session" : "portal-session");

export const sessionPlugin = fp<{ context: AppContext }>(async (app: FastifyInstance, { context }) => {
  const { config, now, tracker } = context;
  const maxSeconds = config.session.maxSeconds;
  const cookieName = sessionCookieName(config.cookieSecure);
  // Registered here rather than by secure-session, so the hook below runs between its parse and the session's.
  // The README passes parseOptions to the cookie package's parse, whose `decode` this is; the plugin's types list only
  // the serializing options.
  const parseOptions: ParseOptions = { decode: keptDecoder(MAX_OPENED_SESSIONS) };
  await app.register(fastifyCookie, { parseOptions: parseOptions as CookieSerializeOptions });
  app.decorateRequest("openedSession", undefined);
  // Opened by this app's keys only: the cache lives and dies with the app, never shared with another.
  const opened = new ByLongString<Opened>(MAX_OPENED_SESSIONS);

  // A value opened before is not handed to secure-session (which would decrypt and parse it again): its kept
  // fields become the request's session in the next hook.
  app.addHook("onRequest", (request, _reply, done) => {
    const value = request.cookies[cookieName];
    const known = value === undefined ? undefined : opened.get(value);
    if (known) {
      request.openedSession = known;
      delete request.cookies[cookieName];
    }
    done();
  });
  await app.register(secureSession, {
    key: config.sessionKeys, // the first seals; the others still open (rotation)
    cookieName,
    expiry: maxSeconds,
    cookie: {
      path: "/",
      httpOnly: true,
      secure: config.cookieSecure,
      sameSite: "strict",
      maxAge: maxSeconds,
      encode: encodeSealed,
    },
  });
  app.decorateRequest("auth", undefined);

  app.addHook("onRequest", (request, _reply, done) => {
    const known = request.openedSession;
    if (known) {
      request.cookies[cookieName] = known.value;
      // secure-session's own rule for an old cookie: sealed longer than `expiry` ago, it holds nothing.
      if ((Number(known.fields.__ts) + maxSeconds) * 1000 > Date.now()) {
        request.session = app.createSecureSession({ ...known.fields });
        request.session.changed = known.rotated;
        known.auth ??= deepFreeze(readAuth(request));
        request.auth = known.auth;
      } else {
        opened.delete(known.value);
        request.auth = undefined;
      }
    } else {
      remember(request);
      request.auth = readAuth(request);
    }
    endIfOver(request);
    done();
  });

  /** A value secure-session opened to a session is kept, with its fields, for the next request that sends it. */
  function remember(request: FastifyRequest): void {
    const value = request.cookies[cookieName];
    const fields = request.session.data() as Record<string, unknown> | undefined;
    if (value === undefined || !fields || Object.keys(fields).length === 0) return;
    const kept = deepFreeze({ ...structuredClone(fields), __ts: request.session.get("__ts") as number });
    opened.set(value, { value, fields: kept, rotated: request.session.changed });
  }

  /** A revoked, refused, timed-out or too old session ends here; an active one is marked seen (once a minute). */
  function endIfOver(request: FastifyRequest): void {
    const reason = endReason(request);
    if (reason) expire(request, reason, config.session.idleSeconds / 60);
    else if (request.auth) {
      const time = now();
      if (time - sessionTimes(request).seen > SEEN_GRANULARITY_MS && request.routeOptions.config.activity !== false)
        markSeen(request, time);
    }
  }

  function endReason(request: FastifyRequest): EndReason | undefined {
    const sid = sessionId(request);
    if (sid && app.revocations.has(sid)) return "revoked";
    const auth = request.auth;
    if (!auth) return undefined;
    // A token the upstream refused on a call the server made in the background (SPEC.md 4.5).
    if (tracker.expired(auth.token)) return "upstream-refused";
    const time = now();
    const { born, seen } = sessionTimes(request);
    if (time - born > maxSeconds * 1000) return "lifetime";
    if (time - seen > config.session.idleSeconds * 1000) return "idle";
    return undefined;
  }
});

// Opened session cookies, kept by their exact value: a browser sends the same cookie with every request until the
// session changes, and opening it (base64, libsodium, JSON) was a quarter of a signed-in page's CPU. The cache wraps
// @fastify/secure-session's own `decodeSecureSession`, so a value is opened by the library once, then answered from
// here with the same checks the library makes on every request (its `expiry`) and a fresh session object each time.
import type { FastifyInstance } from "fastify";
import { LRUCache } from "lru-cache";

/**
 * What a cookie held when the library opened it, and whether it was sealed with an older key (to seal it again).
 * Kept by the cookie's nonce (its random last part): hashing the whole 4 KB value for a lookup took 5 µs, comparing
 * it with the kept value takes 0.3 µs. A value that shares a kept nonce but differs is opened like any other.
 */
type Opened = { cookie: string; data: Readonly<Record<string, unknown>>; ts: number; rotated: boolean };

/** Bytes of cookie values and their contents kept at most (each about 6 KB with a large token). */
export const DECODE_CACHE_BYTES = 8 * 2 ** 20;

export function cacheSessionDecoding(app: FastifyInstance, expirySeconds: number): void {
  const open = app.decodeSecureSession.bind(app);
  const kept = new LRUCache<string, Opened>({
    maxSize: DECODE_CACHE_BYTES,
    // The value and its contents (about as long as the sealed text), two bytes a character.
    sizeCalculation: (opened) => opened.cookie.length * 4,
  });
  app.decodeSecureSession = (cookie, log, sessionName) => {
    if (cookie === undefined) return open(cookie, log, sessionName);
    const nonce = cookie.slice(cookie.lastIndexOf(";") + 1);
    const found = kept.get(nonce);
    const hit = found?.cookie === cookie ? found : undefined;
    if (hit === undefined) {
      const session = open(cookie, log, sessionName);
      // Only what the library accepted is kept: a forged or expired value is opened (and refused) each time.
      if (session) {
        const ts = session.get("__ts" as never) as unknown as number;
        kept.set(nonce, { cookie, data: deepFreeze({ ...session.data() }), ts, rotated: session.changed });
      }
      return session;
    }
    if ((hit.ts + expirySeconds) * 1000 - Date.now() <= 0) {
      kept.delete(nonce);
      return null; // as the library answers an expired cookie
    }
    // A session of its own for this request: writes go to a copy's top level; nested values are frozen and replaced.
    const session = app.createSecureSession({ ...hit.data, __ts: hit.ts });
    session.changed = hit.rotated;
    return session;
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

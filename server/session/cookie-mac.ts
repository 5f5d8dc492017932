// The MAC a small cookie beside the session carries (the device cookie, the same-site cookie), and the same-site cookie
// itself: by default 16 bytes of HMAC-SHA-256 as 22 base64url characters (the device cookie keeps all 32), under a key
// of its own derived from each session key, so it can stand for nothing else the portal signs. The first key writes;
// every key still matches (rotation).
import { createHmac, createSecretKey, hkdfSync, type KeyObject, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

/** Bytes of the MAC kept (128 bits: guessing one is no easier than guessing the key). */
const MAC_BYTES = 16;

export class CookieMac {
  readonly #keys: KeyObject[];
  readonly #bytes: number;

  /** `label` names what the MAC is for: two cookies never share a key. `bytes` of the HMAC are kept (at most 32). */
  constructor(sessionKeys: Buffer[], label: string, bytes = MAC_BYTES) {
    this.#bytes = bytes;
    // Made a key object once: an HMAC given raw bytes imports them again each time, five times the cost of the MAC.
    this.#keys = sessionKeys.map((key) => createSecretKey(Buffer.from(hkdfSync("sha256", key, "", label, 32))));
  }

  #mac(key: KeyObject, text: string): Buffer {
    return createHmac("sha256", key).update(text).digest().subarray(0, this.#bytes);
  }

  /** The MAC of `text`, as the cookie carries it (undefined without a key). */
  of(text: string): string | undefined {
    const [key] = this.#keys;
    return key && this.#mac(key, text).toString("base64url");
  }

  /** Whether a cookie's `value` is the MAC of `text` under any of the keys. */
  matches(value: string | undefined, text: string): boolean {
    if (value?.length !== Math.ceil((this.#bytes * 4) / 3)) return false;
    const given = Buffer.from(value, "base64url");
    if (given.length !== this.#bytes) return false;
    return this.#keys.some((key) => timingSafeEqual(this.#mac(key, text), given));
  }
}

/** The session cookie's attributes, which its Strict partner shares but for `SameSite`. */
type SessionCookieOptions = { path: string; httpOnly: boolean; secure: boolean; maxAge: number };

export const sameSiteCookieName = (secure: boolean) => (secure ? "__Host-portal-same-site" : "portal-same-site");

/**
 * The session's second cookie, as GitHub pairs its own: the session is `SameSite=Lax`, so a link from another site (a
 * mail, a chat) opens the person's page, and this one is `SameSite=Strict`, so only a request this site started
 * carries it. It holds the MAC of the session's id and nothing else, of the session's lifetime, and means nothing once
 * that session has ended (an ended session's cookie is left in place: it matches no later id). A browser that sends no
 * Fetch Metadata shows by it that a GET is this site's, and only then may the GET write the session (`sessionUse`,
 * server/plugins/csrf.ts).
 */
export class SameSiteCookie {
  readonly #mac: CookieMac;
  readonly #name: string;
  readonly #options;

  constructor(sessionKeys: Buffer[], sessionCookie: SessionCookieOptions) {
    this.#mac = new CookieMac(sessionKeys, "portal same-site");
    this.#name = sameSiteCookieName(sessionCookie.secure);
    this.#options = { ...sessionCookie, sameSite: "strict" } as const;
  }

  /** Whether the request carries this cookie for the session `sid`: a request this site started. */
  carried(request: FastifyRequest, sid: string): boolean {
    return this.#mac.matches(request.cookies[this.#name], sid);
  }

  /** The browser keeps the cookie for the session `sid`. */
  give(reply: FastifyReply, sid: string): void {
    const value = this.#mac.of(sid);
    if (value) reply.setCookie(this.#name, value, this.#options);
  }
}

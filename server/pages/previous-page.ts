// The previous tracked path (requirements 4.8), kept beside the session rather than in it: a page view that records a
// visit writes this cookie of 22 characters, never the sealed session of up to 4 KB. It holds no path, only a MAC over
// the session's id and the path: the server compares it with the page asked for, so all a cookie can ever say is
// "this page, for this session, is the previous one" (docs/decisions.md, "The previous path in a cookie of its own").
import { createHmac, createSecretKey, hkdfSync, type KeyObject, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "#server/config.ts";

export const previousPageCookieName = (secure: boolean) => (secure ? "__Host-portal-page" : "portal-page");

/** Bytes of the MAC kept (128 bits: guessing one is no easier than guessing the key). */
const MAC_BYTES = 16;
const MAC_CHARACTERS = Math.ceil((MAC_BYTES * 4) / 3);

export class PreviousPages {
  /** One MAC key per session key (the first writes, the others still match: rotation). */
  readonly #keys: KeyObject[];
  readonly #name: string;
  readonly #options;

  constructor({
    sessionKeys,
    cookieSecure,
    session,
  }: { sessionKeys: Buffer[] } & Pick<Config, "cookieSecure" | "session">) {
    // A key of its own, derived from the session's: this MAC can stand for nothing else the portal signs. Made a key
    // object once: an HMAC given raw bytes imports them again each time, five times the cost of the MAC itself.
    this.#keys = sessionKeys.map((key) =>
      createSecretKey(Buffer.from(hkdfSync("sha256", key, "", "portal previous page", 32))),
    );
    this.#name = previousPageCookieName(cookieSecure);
    // The session cookie's attributes and lifetime: it means nothing once its session has ended.
    this.#options = {
      path: "/",
      httpOnly: true,
      secure: cookieSecure,
      sameSite: "strict",
      maxAge: session.maxSeconds,
    } as const;
  }

  #mac(key: KeyObject, sid: string, page: string): Buffer {
    return createHmac("sha256", key).update(`${sid}\n${page}`).digest().subarray(0, MAC_BYTES);
  }

  /** Whether `page` is the previous tracked path of the session `sid`, as this browser's cookie says. */
  isPrevious(request: FastifyRequest, sid: string, page: string): boolean {
    const value = request.cookies[this.#name];
    if (value?.length !== MAC_CHARACTERS) return false;
    const given = Buffer.from(value, "base64url");
    if (given.length !== MAC_BYTES) return false;
    return this.#keys.some((key) => timingSafeEqual(this.#mac(key, sid, page), given));
  }

  /** `page` is now the previous tracked path of the session `sid`. */
  remember(reply: FastifyReply, sid: string, page: string): void {
    const [key] = this.#keys;
    if (key) reply.setCookie(this.#name, this.#mac(key, sid, page).toString("base64url"), this.#options);
  }
}

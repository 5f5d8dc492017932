// The device cookie: a browser that passed a sign-in as a person keeps, for that person, a budget of attempts of its
// own, which failures from elsewhere cannot spend (OWASP's "device cookies" against brute force). It is a long-lived
// HttpOnly cookie holding a random device id and a MAC over that id and the person; the person is not readable in it.
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

/** How long a device stays known after its last passed sign-in. */
export const DEVICE_MAX_AGE_S = 180 * 24 * 3600;

export const deviceCookieName = (secure: boolean) => (secure ? "__Host-portal-device" : "portal-device");

export class DeviceCookies {
  /** One MAC key per session key (the first issues, the others still verify: rotation). */
  readonly #keys: Buffer[];
  readonly #name: string;

  constructor(
    sessionKeys: Buffer[],
    private readonly secure: boolean,
  ) {
    // A key of its own, derived from the session's: a MAC here can never stand for a sealed session.
    this.#keys = sessionKeys.map((key) => Buffer.from(hkdfSync("sha256", key, "", "portal device cookie", 32)));
    this.#name = deviceCookieName(secure);
  }

  #mac(key: Buffer, id: string, person: string): Buffer {
    return createHmac("sha256", key).update(`${id}\n${person}`).digest();
  }

  /** The device's id when the request carries a device cookie issued to this person; undefined otherwise. */
  deviceOf(request: FastifyRequest, person: string): string | undefined {
    const value = request.cookies?.[this.#name];
    const match = value?.match(/^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/);
    if (!match) return undefined;
    const [, id = "", mac = ""] = match;
    const given = Buffer.from(mac, "base64url");
    return this.#keys.some((key) => timingSafeEqual(this.#mac(key, id, person), given)) ? id : undefined;
  }

  /**
   * The id this browser is known by for the person: its device cookie's, or a fresh random one, which becomes its
   * device cookie only when `remember` is given it (never a value the browser chose).
   */
  idFor(request: FastifyRequest, person: string): string {
    return this.deviceOf(request, person) ?? randomBytes(16).toString("base64url");
  }

  /**
   * After a passed sign-in: the browser is this person's device, by the id given (one `idFor` answered) or else its
   * own (kept when it already was one).
   */
  remember(request: FastifyRequest, reply: FastifyReply, person: string, id = this.idFor(request, person)): void {
    const [key] = this.#keys;
    if (!key) return;
    reply.setCookie(this.#name, `${id}.${this.#mac(key, id, person).toString("base64url")}`, {
      path: "/",
      httpOnly: true,
      secure: this.secure,
      sameSite: "strict",
      maxAge: DEVICE_MAX_AGE_S,
    });
  }
}

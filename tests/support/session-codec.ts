// The portal's session cookie sealed and opened outside the portal, with the portal's own keys: how a test plants a
// cookie or reads what a cookie holds. The cookie holds the id of the session's record in the ledger (`sid`) and the
// next page's notice (`flash`), nothing else (server/session/fields.ts). The production app has no such door (tests
// only).
import secureSession from "@fastify/secure-session";
import Fastify from "fastify";
import type { Config } from "#server/config.ts";
import type { SessionFields } from "#server/session/fields.ts";

/** What the session cookie can hold. */
export type CookieFields = Pick<SessionFields, "sid" | "flash">;

export type SessionCodec = {
  /** The cookie value (as a Cookie header carries it) for a cookie holding `data`. */
  encode(data: Partial<CookieFields>): string;
  /** What a cookie value (as a Cookie header carries it) holds, or null when the portal's keys do not open it. */
  decode(value: string): { get<K extends keyof CookieFields>(key: K): CookieFields[K] | undefined } | null;
};

export async function sessionCodec(config: Pick<Config, "sessionKeys">): Promise<SessionCodec> {
  const sealer = Fastify({ logger: false });
  await sealer.register(secureSession, { key: config.sessionKeys });
  await sealer.ready();
  return {
    // As @fastify/cookie writes it (its default encoding), and a browser sends it back.
    encode: (data) => encodeURIComponent(sealer.encodeSecureSession(sealer.createSecureSession({ ...data }))),
    decode: (value) => {
      try {
        return sealer.decodeSecureSession(decodeURIComponent(value), sealer.log);
      } catch {
        return null; // not percent-encoding: no cookie of the portal's
      }
    },
  };
}

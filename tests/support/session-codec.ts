// The portal's session cookie sealed and opened outside the portal, with the portal's own keys: how a test forges a
// session or reads what a cookie holds. The production app has no such door (tests only).
import secureSession from "@fastify/secure-session";
import Fastify from "fastify";
import type { Config } from "#server/config.ts";
import type { SessionFields } from "#server/session/fields.ts";
import { sessionCookieValue } from "#server/session/plugin.ts";

export type SessionCodec = {
  /** The cookie value (as a Cookie header carries it) for a session holding `data`. */
  encode(data: Partial<SessionFields>): string;
  /** What a cookie value holds, or null when the portal's keys do not open it. */
  decode(value: string): { get<K extends keyof SessionFields>(key: K): SessionFields[K] | undefined } | null;
};

export async function sessionCodec(config: Pick<Config, "sessionKeys">): Promise<SessionCodec> {
  const sealer = Fastify({ logger: false });
  await sealer.register(secureSession, { key: config.sessionKeys });
  await sealer.ready();
  return {
    encode: (data) => sessionCookieValue(sealer.encodeSecureSession(sealer.createSecureSession({ ...data }))),
    decode: (value) => sealer.decodeSecureSession(decodeURIComponent(value)),
  };
}

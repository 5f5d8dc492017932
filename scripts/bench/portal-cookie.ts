// @fastify/secure-session as the bare references register it: the portal's first key and its cookie's name and
// attributes, so they open the portal's own session cookie.
import secureSession from "@fastify/secure-session";
import type { FastifyInstance } from "fastify";

export async function openPortalCookie(app: FastifyInstance): Promise<void> {
  await app.register(secureSession, {
    key: Buffer.from(String(process.env.SESSION_KEY).split(",")[0] ?? "", "hex"),
    cookieName: "__Host-portal-session",
    cookie: { path: "/", httpOnly: true, secure: true, sameSite: "strict" },
  });
}

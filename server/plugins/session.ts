// The encrypted, HttpOnly session cookie, with an idle timeout and an absolute lifetime.
import secureSession from "@fastify/secure-session";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { AppContext } from "#server/context.ts";
import { currentAuth, endSession } from "#server/session.ts";
import { errorTexts } from "#web/texts/errors.ts";
import { loginTexts } from "#web/texts/login.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** False on a route that a page calls by itself (not the person): it does not restart the idle time. */
    activity?: boolean;
  }
}

/** `seen` is refreshed at most this often, so a page view does not re-encrypt the cookie every time. */
const SEEN_GRANULARITY_MS = 60_000;

/** What a browser keeps of one cookie (RFC 6265 6.1): the whole `Set-Cookie` value must stay within it. */
export const MAX_COOKIE_BYTES = 4096;
export const sessionTooLarge =
  "Sign-in could not be completed: the session is too large for this browser to keep. Please contact support.";

export const sessionCookieName = (secure: boolean) => (secure ? "__Host-portal-session" : "portal-session");

/** The cookie's value is base64 and one `;`: only the `;` needs escaping (percent-encoding all of it adds ~6%). */
const encodeValue = (value: string) => value.replaceAll(";", "%3B");

export const sessionPlugin = fp<{ context: AppContext }>(async (app: FastifyInstance, { context }) => {
  const { config, now, revoked } = context;
  const cookieName = sessionCookieName(config.cookieSecure);
  const cookieOptions = {
    path: "/",
    httpOnly: true,
    sameSite: "strict",
    secure: config.cookieSecure,
    maxAge: config.session.maxSeconds,
    encode: encodeValue,
  } as const;
  await app.register(secureSession, {
    key: config.sessionKeys,
    cookieName,
    expiry: config.session.maxSeconds,
    cookie: cookieOptions,
  });

  // A session the browser could not keep is not sent: it ends, and the answer says so (runs after the session's hook).
  app.addHook("onSend", async (request, reply, payload) => {
    const written = [reply.getHeader("set-cookie")].flat().filter((cookie) => typeof cookie === "string");
    const oversized = written.find((c) => c.startsWith(`${cookieName}=`) && Buffer.byteLength(c) > MAX_COOKIE_BYTES);
    if (!oversized) return payload;
    request.log.error({ event: "session-too-large", bytes: Buffer.byteLength(oversized) }, "session not stored");
    const sid = request.session.get("sid");
    if (sid) revoked.revoke(sid);
    const others = written.filter((cookie) => cookie !== oversized);
    reply.removeHeader("set-cookie");
    if (others.length > 0) reply.header("set-cookie", others);
    const flash = app.createSecureSession({ flash: { error: sessionTooLarge } });
    reply.setCookie(cookieName, app.encodeSecureSession(flash), cookieOptions);
    if (request.url.startsWith("/api/")) {
      reply.code(502).type("application/json; charset=utf-8");
      return JSON.stringify({ detail: sessionTooLarge });
    }
    reply.code(303).header("location", "/").removeHeader("content-type");
    return "";
  });

  app.addHook("onRequest", async (request) => {
    if (revoked.has(request.session.get("sid"))) {
      endSession(request);
      return;
    }
    if (!currentAuth(request)) return;
    const time = now();
    const born = request.session.get("born") ?? 0;
    const seen = request.session.get("seen") ?? 0;
    if (time - born > config.session.maxSeconds * 1000) {
      endSession(request, { error: errorTexts.sessionExpired });
    } else if (time - seen > config.session.idleSeconds * 1000) {
      // SPEC.md's message, and why: the sign-in page says the session ended for want of activity.
      const minutes = config.session.idleSeconds / 60;
      endSession(request, { error: `${errorTexts.sessionExpired}. ${loginTexts.endedIdle(minutes)}` });
    } else if (time - seen > SEEN_GRANULARITY_MS && request.routeOptions.config.activity !== false) {
      request.session.set("seen", time);
    }
  });
});

// The encrypted, HttpOnly session cookie, with an idle timeout and an absolute lifetime.
import secureSession from "@fastify/secure-session";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { AppContext } from "#server/context.ts";
import { currentAuth, endSession } from "#server/session.ts";
import { errorTexts } from "#web/texts/errors.ts";

/** `seen` is refreshed at most this often, so a page view does not re-encrypt the cookie every time. */
const SEEN_GRANULARITY_MS = 60_000;

export const sessionCookieName = (secure: boolean) => (secure ? "__Host-portal-session" : "portal-session");

export const sessionPlugin = fp<{ context: AppContext }>(async (app: FastifyInstance, { context }) => {
  const { config, now, revoked } = context;
  await app.register(secureSession, {
    key: config.sessionKeys,
    cookieName: sessionCookieName(config.cookieSecure),
    expiry: config.session.maxSeconds,
    cookie: {
      path: "/",
      httpOnly: true,
      sameSite: "strict",
      secure: config.cookieSecure,
      maxAge: config.session.maxSeconds,
    },
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
    if (time - seen > config.session.idleSeconds * 1000 || time - born > config.session.maxSeconds * 1000) {
      endSession(request, { error: errorTexts.sessionExpired });
    } else if (time - seen > SEEN_GRANULARITY_MS) {
      request.session.set("seen", time);
    }
  });
});

// The encrypted, HttpOnly session cookie, with an idle timeout and an absolute lifetime; re-issued only when changed.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { AppContext } from "#server/context.ts";
import { currentAuth, endSession, Session, type SessionData } from "#server/session.ts";
import { cookieOpener, seal } from "#server/session-cookie.ts";
import { errorTexts } from "#web/texts/errors.ts";
import { loginTexts } from "#web/texts/login.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** False on a route that a page calls by itself (not the person): it does not restart the idle time. */
    activity?: boolean;
  }
  interface FastifyRequest {
    session: Session;
  }
  interface FastifyInstance {
    /** The cookie value for a session holding `data`, and back: what tests use to forge and read cookies. */
    encodeSession(data: Partial<SessionData>): string;
    decodeSession(value: string): Session | undefined;
  }
}

/** `seen` is refreshed at most this often, so a page view does not re-encrypt the cookie every time. */
const SEEN_GRANULARITY_MS = 60_000;

/** What a browser keeps of one cookie (RFC 6265 6.1): the whole `Set-Cookie` value must stay within it. */
export const MAX_COOKIE_BYTES = 4096;
export const sessionTooLarge =
  "Sign-in could not be completed: the session is too large for this browser to keep. Please contact support.";

export const sessionCookieName = (secure: boolean) => (secure ? "__Host-portal-session" : "portal-session");

/** The value of cookie `name` in a `Cookie` header (RFC 6265 5.4); percent-encoding is undone when present. */
function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(";")) {
    const equals = pair.indexOf("=");
    if (equals < 0 || pair.slice(0, equals).trim() !== name) continue;
    const value = pair.slice(equals + 1).trim();
    try {
      return value.includes("%") ? decodeURIComponent(value) : value;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export const sessionPlugin = fp<{ context: AppContext }>(async (app: FastifyInstance, { context }) => {
  const { config, now, revoked } = context;
  const keys = config.sessionKeys;
  const maxAge = config.session.maxSeconds;
  const cookieName = sessionCookieName(config.cookieSecure);
  const attributes = `; Max-Age=${maxAge}; Path=/; HttpOnly${config.cookieSecure ? "; Secure" : ""}; SameSite=Strict`;
  const setCookie = (value: string) => `${cookieName}=${value}${attributes}`;

  const open = cookieOpener(keys, maxAge);
  const decode = (value: string) => {
    const opened = open(value, now());
    return opened && new Session(opened.data, opened.rotated);
  };
  const encode = (session: Session) => seal(session.data(), keys[0] as Buffer, now());
  app.decorate("encodeSession", (data: Partial<SessionData>) => encode(new Session(data)));
  app.decorate("decodeSession", decode);
  app.decorateRequest("session", null as unknown as Session);

  app.addHook("onRequest", (request, _reply, done) => {
    const value = cookieValue(request.headers.cookie, cookieName);
    request.session = (value !== undefined && decode(value)) || new Session();
    endIfOver(request);
    done();
  });

  // Only a changed session is sealed again; one the browser could not keep is not sent: it ends, and the answer says so.
  app.addHook("onSend", (request, reply, payload, done) => {
    const { session } = request;
    if (!session?.changed) return done(null, payload);
    const written = setCookie(encode(session));
    const bytes = Buffer.byteLength(written);
    if (bytes <= MAX_COOKIE_BYTES) {
      reply.header("set-cookie", written); // Fastify adds to any Set-Cookie already there
      return done(null, payload);
    }
    done(null, tooLarge(request, reply, bytes));
  });

  function tooLarge(request: FastifyRequest, reply: FastifyReply, bytes: number): string {
    request.log.error({ event: "session-too-large", bytes }, "session not stored");
    const sid = request.session.get("sid");
    if (sid) revoked.revoke(sid);
    reply.header("set-cookie", setCookie(encode(new Session({ flash: { error: sessionTooLarge } }))));
    if (request.url.startsWith("/api/")) {
      reply.code(502).type("application/json; charset=utf-8");
      return JSON.stringify({ detail: sessionTooLarge });
    }
    reply.code(303).header("location", "/").removeHeader("content-type");
    return "";
  }

  /** A revoked, timed-out or too old session ends here; an active one is marked seen (at most once a minute). */
  function endIfOver(request: FastifyRequest): void {
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
  }
});

// The session's second cookie, as GitHub pairs its own: the session is `SameSite=Lax`, so a link from another site (a
// mail, a chat) opens the person's page, and this one is `SameSite=Strict`, so only a request this site started
// carries it. It holds a MAC of the session's id and nothing else. A browser that sends no Fetch Metadata shows by it
// that a GET is this site's, and only then may the GET write the session (`sessionUse`, server/plugins/csrf.ts).
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "#server/config.ts";
import { CookieMac } from "#server/session/cookie-mac.ts";

export const sameSiteCookieName = (secure: boolean) => (secure ? "__Host-portal-same-site" : "portal-same-site");

export class SameSiteCookies {
  readonly #mac: CookieMac;
  readonly #name: string;
  readonly #options;

  constructor({
    sessionKeys,
    cookieSecure,
    session,
  }: { sessionKeys: Buffer[] } & Pick<Config, "cookieSecure" | "session">) {
    this.#mac = new CookieMac(sessionKeys, "portal same-site");
    this.#name = sameSiteCookieName(cookieSecure);
    // The session's lifetime. An ended session's is left in place: it matches no later session's id.
    this.#options = {
      path: "/",
      httpOnly: true,
      secure: cookieSecure,
      sameSite: "strict",
      maxAge: session.maxSeconds,
    } as const;
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

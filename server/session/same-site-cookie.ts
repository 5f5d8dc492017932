// The session's second cookie, as GitHub pairs its own: the session is `SameSite=Lax`, so a link from another site (a
// mail, a chat) opens the person's page, and this one is `SameSite=Strict`, so only a request this site started
// carries it. It holds a MAC of the session's id and nothing else. A browser that sends no Fetch Metadata shows by it
// that a GET is this site's, and only then may the GET write the session (`sessionUse`, server/plugins/csrf.ts).
import type { FastifyReply, FastifyRequest } from "fastify";
import { MacCookie, type MacCookieConfig } from "#server/session/cookie-mac.ts";

export const sameSiteCookieName = (secure: boolean) => (secure ? "__Host-portal-same-site" : "portal-same-site");

export class SameSiteCookies {
  readonly #cookie: MacCookie;

  constructor(config: MacCookieConfig) {
    // An ended session's cookie is left in place: it matches no later session's id.
    const name = sameSiteCookieName(config.cookieSecure);
    this.#cookie = new MacCookie(config, { name, label: "portal same-site", sameSite: "strict" });
  }

  /** Whether the request carries this cookie for the session `sid`: a request this site started. */
  carried(request: FastifyRequest, sid: string): boolean {
    return this.#cookie.holds(request, sid);
  }

  /** The browser keeps the cookie for the session `sid`. */
  give(reply: FastifyReply, sid: string): void {
    this.#cookie.write(reply, sid);
  }
}

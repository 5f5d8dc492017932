// The previous tracked path (requirements 4.8), kept beside the session rather than in it: a page view that records a
// visit writes this cookie of 22 characters, never the sealed session of up to 4 KB. It holds no path, only a MAC over
// the session's id and the path: the server compares it with the page asked for, so all a cookie can ever say is
// "this page, for this session, is the previous one" (docs/decisions.md, "The previous path in a cookie of its own").
import type { FastifyReply, FastifyRequest } from "fastify";
import { MacCookie, type MacCookieConfig } from "#server/session/cookie-mac.ts";

export const previousPageCookieName = (secure: boolean) => (secure ? "__Host-portal-page" : "portal-page");

export class PreviousPages {
  readonly #cookie: MacCookie;

  constructor(config: MacCookieConfig) {
    // `Lax`, as the session it goes with: a link from another site, which reads the session, reads the previous page
    // too, so a link to the page the person is on is no second visit.
    const name = previousPageCookieName(config.cookieSecure);
    this.#cookie = new MacCookie(config, { name, label: "portal previous page", sameSite: "lax" });
  }

  /** Whether `page` is the previous tracked path of the session `sid`, as this browser's cookie says. */
  isPrevious(request: FastifyRequest, sid: string, page: string): boolean {
    return this.#cookie.holds(request, `${sid}\n${page}`);
  }

  /** `page` is now the previous tracked path of the session `sid`. */
  remember(reply: FastifyReply, sid: string, page: string): void {
    this.#cookie.write(reply, `${sid}\n${page}`);
  }
}

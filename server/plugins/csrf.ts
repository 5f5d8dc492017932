// CSRF defence, in one place: whether another site started a request, and so what the request may change. A
// state-changing request must come from this origin, and an /api call from the portal's own scripts as well; a GET
// another site started may read the session as a page and never write it (`sessionUse`).
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import fp from "fastify-plugin";
import { Refusal } from "#server/plugins/errors.ts";
import { CSRF_HEADER } from "#web/protocol/headers.ts";
import { errorTexts } from "#web/texts/errors.ts";

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);
const csrfHeader = CSRF_HEADER.toLowerCase();

/**
 * A request another site or origin started (a link, a form or a script there): it may read, never write, the session.
 * The browser's `Sec-Fetch-Site`, and its `Origin` when sent, which must be this origin: scheme, host and port. An old
 * browser that sends neither may still send a `Referer`, which then must be this origin's.
 */
export function crossSite(request: FastifyRequest): boolean {
  const site = request.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") return true;
  const from = request.headers.origin ?? (site === undefined ? request.headers.referer : undefined);
  return from !== undefined && originOf(from) !== originOf(`${request.protocol}://${request.host}`);
}

/**
 * The browser says this request is the portal's own or the person's (typed, a bookmark): `Sec-Fetch-Site` is
 * `same-origin` or `none`. A browser that does not say is not taken at its word.
 */
export function ownRequest(request: FastifyRequest): boolean {
  const site = request.headers["sec-fetch-site"];
  return site === "same-origin" || site === "none";
}

/** What a request may do with the session it carries: write it, only read it, or not see it at all. */
export type SessionUse = "write" | "read" | "none";

/**
 * The one answer to "may this request write the session?" (SECURITY.md, "A link from another site"). A request of
 * this origin, or the person's own, may: a state-changing one is past `csrfPlugin` below, and a GET says so by its
 * `Sec-Fetch-Site`, or, from a browser that sends no Fetch Metadata, by the session's Strict cookie
 * (`strictCookieSent`, server/session/cookie-mac.ts). A GET another site started reads the session when it opens a
 * page, or a step a link's redirects lead through (`linkTarget`: a link from a mail shows the person's page), and
 * writes nothing: no idle restart, no re-seal, no end. Anything else it asks (an /api call, a PDF, /session/*'s other
 * routes) sees no session, as a Strict cookie would.
 */
export function sessionUse(request: FastifyRequest, strictCookieSent: () => boolean): SessionUse {
  if (!safeMethods.has(request.method)) return "write";
  if (!crossSite(request) && (ownRequest(request) || strictCookieSent())) return "write";
  return linkTarget(request) ? "read" : "none";
}

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * A GET, not a page, that a link from another site leads to all the same: the sign-in's landing, where `/` and the
     * sign-in pages send a signed-in person. The browser keeps calling each step of the redirect cross-site, so it
     * reads the session as the page before it did; were it to see none, it would send the person back there.
     */
    linkTarget?: true;
  }
}

/** A page, or a route a link's redirects lead through: another site's GET of it reads the session. */
const linkTarget = (request: FastifyRequest): boolean =>
  request.routeOptions.config.policy === "page" || request.routeOptions.config.linkTarget === true;

/**
 * What a state-changing request another site or origin started is refused with: section 8's 403. An /api caller reads
 * it as JSON; a person's form, posted by another site's page, as a page in the portal's words (the session scope's
 * error handler, server/loaders/public.tsx `refusedForm`).
 */
export class CrossSiteRefusal extends Refusal {
  constructor() {
    super(403, errorTexts.accessDenied);
  }
}

/** A state-changing request another site or origin started is refused before anything reads it. */
export const csrfPlugin = fp(async (app: FastifyInstance) => {
  app.addHook("onRequest", (request, _reply, done) => {
    done(!safeMethods.has(request.method) && crossSite(request) ? new CrossSiteRefusal() : undefined);
  });
});

/**
 * /api's calls other than a GET come from the portal's own scripts, an island's call, with the islands' header, which
 * neither a form nor a link can add, nor another origin's script without a preflight the portal never grants (a form
 * posted without script calls its action from its own page's route). Added by /api's plugin to its own scope.
 */
export function refuseWithoutIslandsHeader(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  if (request.method !== "GET" && request.headers[csrfHeader] !== "1") done(new Refusal(403, errorTexts.accessDenied));
  else done();
}

/** The serialised origin (`https://host`, the scheme's default port left out); undefined for `null` and the like. */
function originOf(url: string): string | undefined {
  try {
    const { origin } = new URL(url);
    return origin === "null" ? undefined : origin;
  } catch {
    return undefined;
  }
}

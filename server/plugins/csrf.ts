// CSRF defence: a state-changing request must come from this origin. (The islands' header on /api calls is /api's own
// rule, in server/api/plugin.ts.) `crossSite` is the one answer to "did another site start this request?".
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { Refusal } from "#server/errors.ts";
import { errorTexts } from "#web/texts/errors.ts";

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A request another site or origin started (a link, a form or a script there): it may read, never write, the session.
 * The browser's `Sec-Fetch-Site`, and its `Origin` when sent, which must be this origin: scheme, host and port.
 */
export function crossSite(request: FastifyRequest): boolean {
  const site = request.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") return true;
  const origin = request.headers.origin;
  return origin !== undefined && originOf(origin) !== originOf(`${request.protocol}://${request.host}`);
}

/**
 * The browser says this request is the portal's own or the person's (typed, a bookmark): `Sec-Fetch-Site` is
 * `same-origin` or `none`. A browser that does not say is not taken at its word.
 */
export function ownRequest(request: FastifyRequest): boolean {
  const site = request.headers["sec-fetch-site"];
  return site === "same-origin" || site === "none";
}

export const csrfPlugin = fp(async (app: FastifyInstance) => {
  app.addHook("onRequest", (request, _reply, done) => {
    done(
      !safeMethods.has(request.method) && crossSite(request) ? new Refusal(403, errorTexts.accessDenied) : undefined,
    );
  });
});

/** The serialised origin (`https://host`, the scheme's default port left out); undefined for `null` and the like. */
function originOf(url: string): string | undefined {
  try {
    const { origin } = new URL(url);
    return origin === "null" ? undefined : origin;
  } catch {
    return undefined;
  }
}

// CSRF defence: a state-changing request must come from this origin, and API calls must carry the islands' header.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { CSRF_HEADER } from "#web/api/held.ts";
import { errorTexts } from "#web/texts/errors.ts";

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

export const csrfPlugin = fp(async (app: FastifyInstance) => {
  app.addHook("onRequest", (request, reply, done) => {
    if (safeMethods.has(request.method)) return done();
    const site = request.headers["sec-fetch-site"];
    const origin = request.headers.origin;
    const foreignSite = site !== undefined && site !== "same-origin" && site !== "none";
    const foreignOrigin = origin !== undefined && hostOf(origin) !== request.host;
    const needsHeader = request.url.startsWith("/api/");
    if (foreignSite || foreignOrigin || (needsHeader && request.headers[CSRF_HEADER.toLowerCase()] !== "1")) {
      reply.code(403).send({ detail: errorTexts.accessDenied });
      return;
    }
    done();
  });
});

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

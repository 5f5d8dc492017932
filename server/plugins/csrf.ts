// CSRF defence: a state-changing request must come from this origin. (The islands' header on /api calls is /api's own
// rule, in server/api/plugin.ts.)
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { errorTexts } from "#web/texts/errors.ts";

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

export const csrfPlugin = fp(async (app: FastifyInstance) => {
  app.addHook("onRequest", (request, reply, done) => {
    if (safeMethods.has(request.method)) return done();
    const site = request.headers["sec-fetch-site"];
    const origin = request.headers.origin;
    const foreignSite = site !== undefined && site !== "same-origin" && site !== "none";
    const foreignOrigin = origin !== undefined && hostOf(origin) !== request.host;
    if (foreignSite || foreignOrigin) {
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

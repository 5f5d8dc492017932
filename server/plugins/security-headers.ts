// Headers on every answer: HSTS, no sniffing, a referrer policy, and no caching of anything carrying session state
// (the hashed /assets/ set their own immutable caching; a route that may be cached sets its own over this one).
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

const ONE_YEAR = 31_536_000;

const headers = {
  "strict-transport-security": `max-age=${ONE_YEAR}; includeSubDomains`,
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
};
const uncached = { ...headers, "cache-control": "no-store" };

export const securityHeadersPlugin = fp(async (app: FastifyInstance) => {
  app.addHook("onRequest", (request, reply, done) => {
    reply.headers(request.url.startsWith("/assets/") ? headers : uncached);
    done();
  });
});

// Headers on every answer: HSTS, no sniffing, a referrer policy, and no caching of anything carrying session state.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

const ONE_YEAR = 31_536_000;

export const securityHeadersPlugin = fp(async (app: FastifyInstance) => {
  app.addHook("onSend", async (request, reply, payload) => {
    reply.header("strict-transport-security", `max-age=${ONE_YEAR}; includeSubDomains`);
    reply.header("x-content-type-options", "nosniff");
    reply.header("referrer-policy", "same-origin");
    reply.header("cross-origin-opener-policy", "same-origin");
    if (!request.url.startsWith("/assets/") && !reply.hasHeader("cache-control"))
      reply.header("cache-control", "no-store");
    return payload;
  });
});

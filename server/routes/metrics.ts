// `/metrics` for Prometheus, served only when METRICS_TOKEN is set and only to a request bearing it; and the
// request metrics themselves, recorded when each answer has gone, labelled by route pattern (never by raw path).
import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { AppContext } from "#server/context.ts";
import { Refusal } from "#server/plugins/errors.ts";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** The route pattern a request was answered by (a page's is its row of the route table); another address's, none. */
function routeOf(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  if (pattern === undefined) return "(unmatched)";
  return pattern === "/*" ? "(other page)" : pattern;
}

/** Not encapsulated: the request metrics cover every route of the app. */
export const metricsRoutes = fp(async (app: FastifyInstance, context: AppContext) => {
  const { metrics, config } = context;
  app.addHook("onResponse", (request, reply, done) => {
    metrics.requests.observe(
      { method: request.method, route: routeOf(request), status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });

  const token = config.metricsToken;
  if (!token) return;
  const expected = digest(`Bearer ${token}`);
  app.get("/metrics", async (request, reply) => {
    // Digests of equal length, compared in constant time: the token's length and content leak nothing.
    if (!timingSafeEqual(digest(request.headers.authorization ?? ""), expected))
      throw new Refusal(401, "Unauthorized", undefined, { "www-authenticate": 'Bearer realm="metrics"' });
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
});

// Health for orchestrators: /healthz says the process is alive, /readyz that the upstream answers and keys are loaded.
import type { FastifyInstance } from "fastify";
import type { AppContext } from "#server/context.ts";

export async function healthRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  app.get("/healthz", async (_request, reply) => reply.header("cache-control", "no-store").send({ status: "ok" }));
  app.get("/readyz", async (_request, reply) => {
    const upstream = await fetch(`${context.upstreamUrl}/pdfs/BankHolidays.pdf`, {
      method: "HEAD",
      signal: AbortSignal.timeout(2_000),
    })
      .then((response) => response.status < 500)
      .catch(() => false);
    const keys = context.config.sessionKeys.length > 0;
    const ready = upstream && keys;
    return reply
      .code(ready ? 200 : 503)
      .header("cache-control", "no-store")
      .send({ status: ready ? "ready" : "not ready", upstream, keys });
  });
}

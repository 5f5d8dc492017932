// The thinnest proxy the portal's parts allow: Fastify with the portal's logging, one route, the portal's upstream
// caller, a fixed token, the answer passed on as bytes. No session, gates, checks or security headers: set beside the
// portal's /api, it shows what the portal itself adds to a proxied call.
import Fastify from "fastify";
import { loggerOptions, OneLinePerRequest } from "#server/logging.ts";
import { Metrics } from "#server/metrics.ts";
import { upstreamCaller } from "#server/upstream/call.ts";

const upstream = upstreamCaller(String(process.env.UPSTREAM_URL), 10_000, new Metrics());
const token = String(process.env.UPSTREAM_TOKEN);

const app = Fastify({ logger: loggerOptions("info"), logController: new OneLinePerRequest() });
app.post<{ Params: { audience: string } }>("/api/web/:audience/password/test", async (request, reply) => {
  const path = `/web/${encodeURIComponent(request.params.audience)}/password/test`;
  const answer = await upstream({ operation: "testPassword", method: "POST", path, token, body: request.body });
  if (answer.kind === "fault") return reply.code(502).send({});
  return reply.code(answer.status).type("application/json; charset=utf-8").send(answer.raw);
});
app.get("/healthz", async () => ({ ok: true }));
await app.listen({ host: process.env.HOST ?? "127.0.0.1", port: Number(process.env.PORT) });
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));

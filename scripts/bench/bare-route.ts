// The thinnest route of the same parts: Fastify with the portal's logging, @fastify/secure-session (the portal's key
// and cookie name, so it opens the same cookie) and one route making the same openapi-fetch call as the portal's
// password test, with the token the upstream issued. No gates, checks, throttles or security headers: set beside the
// portal's /api, it shows what the portal adds.
import Fastify from "fastify";
import createClient from "openapi-fetch";
import type { paths } from "#openapi/schema.ts";
import { openPortalCookie } from "#scripts/bench/portal-cookie.ts";
import { loggerOptions, OneLinePerRequest } from "#server/plugins/logging.ts";

const upstream = createClient<paths>({ baseUrl: String(process.env.UPSTREAM_URL) });
const authorization = `Bearer ${process.env.UPSTREAM_TOKEN}`;

const app = Fastify({ logger: loggerOptions("info"), logController: new OneLinePerRequest() });
await openPortalCookie(app);
app.post<{ Params: { audience: "client" | "vendor" }; Body: { userId: string; password: string } }>(
  "/api/web/:audience/password/test",
  async (request, reply) => {
    const { response } = await upstream.POST("/web/{audience}/password/test", {
      params: { path: { audience: request.params.audience } },
      body: request.body,
      headers: { authorization },
    });
    return reply.code(response.ok ? 200 : response.status).send({});
  },
);
app.get("/healthz", async () => ({ ok: true }));
await app.listen({ host: process.env.HOST ?? "127.0.0.1", port: Number(process.env.PORT) });
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));

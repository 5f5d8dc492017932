// The thinnest proxy of the same parts: Fastify with the portal's logging, @fastify/secure-session (the portal's key
// and cookie name, so it opens the same cookie) and @fastify/http-proxy, one route, the token the upstream issued.
// No gates, checks, throttles or security headers: set beside the portal's /api, it shows what the portal adds.
import httpProxy from "@fastify/http-proxy";
import Fastify from "fastify";
import { openPortalCookie } from "#scripts/bench/portal-cookie.ts";
import { loggerOptions, OneLinePerRequest } from "#server/plugins/logging.ts";

const app = Fastify({ logger: loggerOptions("info"), logController: new OneLinePerRequest() });
await openPortalCookie(app);
await app.register(httpProxy, {
  upstream: String(process.env.UPSTREAM_URL),
  prefix: "/api",
  routes: ["/web/:audience/password/test"],
  httpMethods: ["POST"],
  proxyPayloads: false,
  disableRequestLogging: true,
  replyOptions: {
    rewriteRequestHeaders: (_request, headers) => {
      return {
        host: String(headers.host),
        "content-type": "application/json",
        "content-length": String(headers["content-length"]),
        authorization: `Bearer ${process.env.UPSTREAM_TOKEN}`,
      };
    },
  },
});
app.get("/healthz", async () => ({ ok: true }));
await app.listen({ host: process.env.HOST ?? "127.0.0.1", port: Number(process.env.PORT) });
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));

// The bench's upstream: the fake upstream's script (scripts/fake-upstream.ts, the one the tests use), served
// by Fastify with the portal's production logging, like the sandbox. Every call the benchmarks make is answered from
// memory, with a realistic 1.2 KB token (each login its own, as a real upstream issues them) and the largest realistic
// permissions, so the direct reference is an upstream of the sandbox's own weight, minus its database. No call is
// recorded (a ten-minute load would fill memory).
import Fastify from "fastify";
import { happyUpstream, jwtLikeToken } from "#scripts/fake-upstream.ts";
import { loggerOptions } from "#server/logging.ts";

const answer = happyUpstream({ token: () => jwtLikeToken(1200) });
const app = Fastify({ logger: loggerOptions("info") });
app.removeAllContentTypeParsers();
app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body));
app.all("/*", async (request, reply) => {
  reply.hijack();
  const body = typeof request.body === "string" ? request.body : "";
  await answer({ method: request.method, path: request.url, headers: request.headers, body }, reply.raw);
});

await app.listen({ host: process.env.HOST ?? "127.0.0.1", port: Number(process.env.PORT) });
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));

// The bench's upstream: a Fastify app like the sandbox (same framework, production logging) that answers every call
// the benchmarks make from memory, so the reference is the upstream's own cost rather than its database's.
import Fastify from "fastify";
import { fullPermissions, jwtLikeToken } from "#scripts/fake-upstream.ts";
import { loggerOptions } from "#server/logging.ts";

const token = jwtLikeToken(1200);
const app = Fastify({ logger: loggerOptions("info") });

app.post("/auth/:audience", async () => ({ token, message: "Success" }));
app.post("/web/:audience/mfa/generate", async () => ({ ok: true }));
app.post("/web/:audience/mfa/validate/:code", async () => [{ text: "Passed" }]);
app.get("/web/:audience/user-info", async () => ({ loaded: true, ...fullPermissions }));
app.post("/web/track", async () => ({ ok: true }));
app.post("/web/:audience/password/test", async () => ({ ok: true }));

await app.listen({ host: process.env.HOST ?? "127.0.0.1", port: Number(process.env.PORT) });
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));

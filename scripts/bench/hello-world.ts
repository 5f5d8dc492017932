// The reference for a page: a bare Fastify hello-world, with the portal's logger and process set-up.
import Fastify from "fastify";
import { loggerOptions } from "#server/logging.ts";

const app = Fastify({ logger: loggerOptions("info") });
app.get("/", async (_, reply) => reply.type("text/html; charset=utf-8").send("<!doctype html><p>Hello, world</p>"));
await app.listen({ host: process.env.HOST ?? "127.0.0.1", port: Number(process.env.PORT) });
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));

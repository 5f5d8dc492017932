// What the log tests share: a stream keeping every JSON line an app writes (and appending it to the run's logs for
// scripts/check-logs.ts), an upstream in front of the sandbox that notes every token it hands out or is shown, and the
// portal that logs into the one through the other.
import { appendFileSync, mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { latestCode } from "#scripts/sign-in.ts";
import { buildApp } from "#server/app.ts";
import { type Config, loadConfig } from "#server/config.ts";
import { loggerOptions } from "#server/logging.ts";
import { type RunningSandbox, startSandbox } from "#server/sandbox/app.ts";
import { TEST_LOGS, TEST_SESSION_KEY } from "#tests/support/portal.ts";

export function logCapture(name: string): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const text = chunk.toString("utf8");
      lines.push(...text.split("\n").filter(Boolean));
      mkdirSync(TEST_LOGS, { recursive: true });
      appendFileSync(`${TEST_LOGS}${name}-${process.pid}.log`, text);
      done();
    },
  });
  return { stream, lines };
}

export async function tokenRecorder(target: string, tokens: Set<string>): Promise<{ server: Server; url: string }> {
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    if (bearer) tokens.add(bearer);
    const answer = await fetch(`${target}${request.url}`, {
      method: request.method ?? "GET",
      headers: Object.fromEntries(
        Object.entries(request.headers).filter((entry): entry is [string, string] =>
          ["authorization", "content-type"].includes(entry[0]),
        ),
      ),
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    const body = Buffer.from(await answer.arrayBuffer());
    const token = /"token":"([^"]+)"/.exec(body.toString())?.[1];
    if (token) tokens.add(token);
    response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export type LoggedPortal = {
  app: FastifyInstance;
  config: Config;
  sandbox: RunningSandbox;
  /** The latest code mailed to `email`, remembered as a secret. */
  code(email: string): Promise<string>;
  close(): Promise<void>;
};

/**
 * The portal the log tests read: its lines written to `stream`, in front of an in-memory sandbox through a token
 * recorder, so every token issued or shown joins `secrets`. `env` adds to the test configuration (limits, strikes).
 */
export async function startLoggedPortal(
  stream: Writable,
  secrets: Set<string>,
  env: Record<string, string> = {},
  now?: () => number,
): Promise<LoggedPortal> {
  const sandbox = await startSandbox({ dbPath: ":memory:", portalUrl: "http://127.0.0.1" });
  const recorder = await tokenRecorder(sandbox.url, secrets);
  const config = loadConfig(
    { NODE_ENV: "test", SESSION_KEY: TEST_SESSION_KEY, UPSTREAM_URL: recorder.url, ...env },
    () => {},
  );
  const app = await buildApp({
    config,
    upstreamUrl: recorder.url,
    logger: loggerOptions("info", stream),
    ...(now ? { now } : {}),
  });
  return {
    app,
    config,
    sandbox,
    async code(email) {
      const value = await latestCode(sandbox.url, email);
      secrets.add(value);
      return value;
    },
    async close() {
      await app.close();
      await new Promise<void>((resolve) => recorder.server.close(() => resolve()));
      await sandbox.close();
    },
  };
}

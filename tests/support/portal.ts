// Starts the real portal against the real sandbox upstream over HTTP, on free ports, for a test file.
import { createWriteStream, mkdirSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { type CodeSource, mailboxCode } from "#scripts/sign-in.ts";
import { buildApp } from "#server/app.ts";
import { type Config, loadConfig } from "#server/config.ts";
import { loggerOptions } from "#server/logging.ts";
import { startSandbox } from "#server/sandbox/app.ts";

export type RunningPortal = {
  url: string;
  sandboxUrl: string;
  app: FastifyInstance;
  config: Config;
  /** Where a sign-in finds its code: the mailbox of the sandbox started here (the upstream unless UPSTREAM_URL). */
  code: CodeSource;
  close(): Promise<void>;
};

export const TEST_SESSION_KEY = "a".repeat(64);

export type PortalOptions = {
  env?: NodeJS.ProcessEnv;
  /** The portal's clock. */
  now?: () => number;
  /** The sandbox's clock, which expires its codes, tokens and links; the real time when absent. */
  sandboxNow?: () => number;
  listen?: boolean;
};

/** Every portal a test starts logs here, so a check after the run can prove no secret was ever logged. */
export const TEST_LOGS = new URL("../../artifacts/logs/", import.meta.url).pathname;

/** Tests sign in far more often than a person; throttling has its own test with its own limits. */
const testDefaults = {
  NODE_ENV: "test",
  SESSION_KEY: TEST_SESSION_KEY,
  RATE_LIMIT_IP_PER_MINUTE: "100000",
  RATE_LIMIT_USER_PER_MINUTE: "100000",
};

export async function startPortal({
  env = {},
  now,
  sandboxNow,
  listen = true,
}: PortalOptions = {}): Promise<RunningPortal> {
  const config = loadConfig({ ...testDefaults, ...env }, () => {});
  mkdirSync(TEST_LOGS, { recursive: true });
  const logStream = createWriteStream(`${TEST_LOGS}portal-${process.pid}.log`, { flags: "a" });
  const sandbox = await startSandbox({
    dbPath: ":memory:",
    portalUrl: "http://127.0.0.1",
    ...(sandboxNow ? { now: sandboxNow } : {}),
  });
  const app = await buildApp({
    config,
    upstreamUrl: config.upstreamUrl ?? sandbox.url,
    sandbox: !config.upstreamUrl,
    logger: loggerOptions("info", logStream),
    ...(now ? { now } : {}),
  });
  const url = listen ? await app.listen({ host: "127.0.0.1", port: 0 }) : "http://127.0.0.1";
  return {
    url,
    sandboxUrl: sandbox.url,
    app,
    config,
    code: mailboxCode(sandbox.url),
    async close() {
      await app.close();
      await sandbox.close();
    },
  };
}

export async function sandboxPost(sandboxUrl: string, path: string, body: unknown, method = "POST") {
  const response = await fetch(`${sandboxUrl}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return response.json() as Promise<Record<string, unknown>>;
}

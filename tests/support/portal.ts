// The one way a test starts the portal: built in the test's own process (server/app.ts), in front of an in-memory
// sandbox of its own, or of the upstream an option names; the benchmarks' compiled portal in a process of its own is
// scripts/bench/portal.ts's startBuiltPortal.
import { createWriteStream, mkdirSync } from "node:fs";
import type { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import type { FakeUpstream } from "#harness/fake-upstream.ts";
import { type CodeSource, mailboxCode } from "#harness/sign-in.ts";
import { type RunningSandbox, startSandbox } from "#sandbox/app.ts";
import { buildApp } from "#server/app.ts";
import { type Config, loadConfig } from "#server/config.ts";
import { loggerOptions } from "#server/logging.ts";

export type RunningPortal = {
  url: string;
  sandboxUrl: string;
  sandbox: RunningSandbox;
  app: FastifyInstance;
  config: Config;
  /** Where a sign-in finds its code: the mailbox of the sandbox started here (the upstream unless UPSTREAM_URL). */
  code: CodeSource;
  /** The double `inFrontOfSandbox` started, whose faults and recorded calls the test sets and reads. */
  upstream: FakeUpstream | undefined;
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
  /** Where its log lines go; the run's log file (TEST_LOGS) when absent. */
  logs?: Writable;
  /**
   * An upstream double started in front of the portal's own sandbox (forwarding to it, harness/fake-upstream.ts's
   * forwardTo): the portal calls it instead of the sandbox, and it closes with the portal.
   */
  inFrontOfSandbox?: (sandboxUrl: string) => Promise<FakeUpstream>;
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

/** The portal in this process; it listens on a free port unless `listen` is false (injection is faster). */
export async function startPortalInProcess({
  env = {},
  now,
  sandboxNow,
  listen = true,
  logs,
  inFrontOfSandbox,
}: PortalOptions = {}): Promise<RunningPortal> {
  const sandbox = await startSandbox({
    dbPath: ":memory:",
    portalUrl: "http://127.0.0.1",
    testPasswordCost: true,
    ...(sandboxNow ? { now: sandboxNow } : {}),
  });
  const inFront = inFrontOfSandbox ? await inFrontOfSandbox(sandbox.url) : undefined;
  const config = loadConfig({ ...testDefaults, ...(inFront ? { UPSTREAM_URL: inFront.url } : {}), ...env }, () => {});
  const app = await buildApp({
    config,
    upstreamUrl: config.upstreamUrl ?? sandbox.url,
    sandbox: !config.upstreamUrl,
    logger: loggerOptions("info", logs ?? runLog()),
    ...(now ? { now } : {}),
  });
  const url = listen ? await app.listen({ host: "127.0.0.1", port: 0 }) : "http://127.0.0.1";
  return {
    url,
    sandboxUrl: sandbox.url,
    sandbox,
    app,
    config,
    code: mailboxCode(sandbox.url),
    upstream: inFront,
    async close() {
      await app.close();
      await inFront?.close();
      await sandbox.close();
    },
  };
}

/** This test process's file in the run's logs. */
function runLog(): Writable {
  mkdirSync(TEST_LOGS, { recursive: true });
  return createWriteStream(`${TEST_LOGS}portal-${process.pid}.log`, { flags: "a" });
}

export async function sandboxPost(sandboxUrl: string, path: string, body: unknown, method = "POST") {
  const response = await fetch(`${sandboxUrl}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return response.json() as Promise<Record<string, unknown>>;
}

/** A page visit as the sandbox recorded it (requirements 4.8). */
export type SandboxVisit = { username: string; site: string; page: string; at: string };

/** Every page visit the sandbox recorded, oldest first. */
export async function sandboxVisits(sandboxUrl: string): Promise<SandboxVisit[]> {
  return (await (await fetch(`${sandboxUrl}/sandbox/visits.json`)).json()) as SandboxVisit[];
}

/** The pages the sandbox recorded as visited by `username`, oldest first. */
export async function visitsOf(sandboxUrl: string, username: string): Promise<string[]> {
  return (await sandboxVisits(sandboxUrl)).filter((visit) => visit.username === username).map((visit) => visit.page);
}

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
import { loggerOptions } from "#server/plugins/logging.ts";
import { COMMAND_TIMEOUT_MS, CONNECT_TIMEOUT_MS } from "#server/stores/redis-link.ts";
import { scaled } from "#tests/support/waiting.ts";

/** A portal built in this process, in front of the upstream its options name. */
export type PortalInProcess = {
  url: string;
  app: FastifyInstance;
  config: Config;
  close(): Promise<void>;
};

/** A portal in front of a sandbox of its own. */
export type RunningPortal = PortalInProcess & {
  sandboxUrl: string;
  sandbox: RunningSandbox;
  /** Where a sign-in finds its code: the mailbox of the sandbox started here (the upstream unless UPSTREAM_URL). */
  code: CodeSource;
  /** The double `inFrontOfSandbox` started, whose faults and recorded calls the test sets and reads. */
  upstream: FakeUpstream | undefined;
};

export const TEST_SESSION_KEY = "a".repeat(64);

/** `redisCommandMs` for a test of counts every replica must share: wide enough that a starved machine's slow command
 * is not taken for an outage (past the bound a replica counts alone, by design). */
export const SHARED_COUNTS_REDIS_MS = scaled(10_000);

export type PortalOptions = {
  env?: NodeJS.ProcessEnv;
  /** The portal's clock. */
  now?: () => number;
  /** The sandbox's clock, which expires its codes, tokens and links; the real time when absent. */
  sandboxNow?: () => number;
  /**
   * The sandbox checks passwords at scrypt's full cost, as a person's sandbox does, instead of the tests' cost: for a
   * test that times the checks.
   */
  fullPasswordCost?: boolean;
  listen?: boolean;
  /** Where its log lines go; the run's log file (TEST_LOGS) when absent. */
  logs?: Writable;
  /**
   * The bound on each Redis command; the product's (COMMAND_TIMEOUT_MS), scaled, when absent. A test of what replicas
   * share gives a wider one: on a starved machine a command past the bound makes a replica count alone, by design.
   */
  redisCommandMs?: number;
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
  // One test browser drives many pages and contexts from one address, each keeping its sockets alive: not a flood.
  MAX_SOCKETS_PER_ADDRESS: "10000",
};

/** A portal in front of the upstream `upstreamUrl` (its UPSTREAM_URL), with no sandbox. */
export type PortalOnUpstreamOptions = Omit<PortalOptions, "sandboxNow" | "inFrontOfSandbox" | "fullPasswordCost"> & {
  upstreamUrl: string;
};

/**
 * The portal in this process, in front of the upstream `upstreamUrl` names, or else of a sandbox of its own; it listens
 * on a free port unless `listen` is false (injection is faster).
 */
export function startPortalInProcess(options: PortalOnUpstreamOptions): Promise<PortalInProcess>;
export function startPortalInProcess(options?: PortalOptions): Promise<RunningPortal>;
export async function startPortalInProcess(
  options: PortalOptions | PortalOnUpstreamOptions = {},
): Promise<PortalInProcess | RunningPortal> {
  if ("upstreamUrl" in options) return buildPortal(options, options.upstreamUrl, false);
  const { sandboxNow, inFrontOfSandbox, fullPasswordCost } = options;
  const sandbox = await startSandbox({
    dbPath: ":memory:",
    portalUrl: "http://127.0.0.1",
    testPasswordCost: fullPasswordCost !== true,
    ...(sandboxNow ? { now: sandboxNow } : {}),
  });
  const inFront = inFrontOfSandbox ? await inFrontOfSandbox(sandbox.url) : undefined;
  const portal = await buildPortal(options, inFront?.url ?? sandbox.url, inFront === undefined);
  return {
    ...portal,
    sandboxUrl: sandbox.url,
    sandbox,
    code: mailboxCode(sandbox.url),
    upstream: inFront,
    async close() {
      await portal.close();
      await inFront?.close();
      await sandbox.close();
    },
  };
}

/** The portal's app on the test's settings, calling `upstreamUrl` (as its own sandbox when `sandbox`). */
async function buildPortal(
  {
    env = {},
    now,
    listen = true,
    logs,
    redisCommandMs = scaled(COMMAND_TIMEOUT_MS),
  }: PortalOptions | PortalOnUpstreamOptions,
  upstreamUrl: string,
  sandbox: boolean,
): Promise<PortalInProcess> {
  const config = loadConfig({ ...testDefaults, ...(sandbox ? {} : { UPSTREAM_URL: upstreamUrl }), ...env }, () => {});
  const app = await buildApp({
    config,
    upstreamUrl: config.upstreamUrl ?? upstreamUrl,
    sandbox: !config.upstreamUrl,
    logger: loggerOptions("info", logs ?? runLog()),
    redisBounds: { connectTimeoutMs: scaled(CONNECT_TIMEOUT_MS), commandTimeoutMs: redisCommandMs },
    ...(now ? { now } : {}),
  });
  const url = listen ? await app.listen({ host: "127.0.0.1", port: 0 }) : "http://127.0.0.1";
  return { url, app, config, close: () => app.close() };
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

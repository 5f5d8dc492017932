// What every route of the portal shares: configuration, the upstream and its declared operations, the security
// stores, tracking and the clock.
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "#server/config.ts";
import { Metrics } from "#server/metrics.ts";
import {
  type CounterStore,
  type LockStore,
  MemoryCounters,
  MemoryLocks,
  MemoryRevocations,
  type RevocationStore,
} from "#server/stores-local.ts";
import { Throttle } from "#server/throttle.ts";
import { VisitTracker } from "#server/tracking.ts";
import { createUpstreamClient, type UpstreamClient } from "#server/upstream/client.ts";
import { loadOperations, type Operation } from "#server/upstream/operations.ts";

export type AppContext = {
  config: Config;
  upstreamUrl: string;
  /** The server's own typed calls to the upstream. */
  upstream: UpstreamClient;
  operations: Operation[];
  metrics: Metrics;
  tracker: VisitTracker;
  throttle: Throttle;
  /** Session ids ended before their cookie expired. */
  revocations: RevocationStore;
  /** Wrong MFA codes per pending session id. */
  strikes: CounterStore;
  /** One MFA validation in flight per pending session. */
  locks: LockStore;
  now: () => number;
  /** Set when the embedded sandbox runs: its address, for the sandbox-only mailbox page. */
  sandboxUrl: string | undefined;
};

export type ContextOptions = { now?: () => number; sandbox?: boolean };

export async function createContext(
  config: Config,
  upstreamUrl: string,
  log: FastifyBaseLogger,
  options: ContextOptions = {},
): Promise<AppContext> {
  const now = options.now ?? Date.now;
  const metrics = new Metrics();
  const operations = await loadOperations();
  const ids = new Map(operations.map((operation) => [`${operation.method} ${operation.path}`, operation.operationId]));
  const operationOf = (method: string, path: string) => ids.get(`${method} ${path}`) ?? path;
  const upstream = createUpstreamClient({
    baseUrl: upstreamUrl,
    timeoutMs: config.upstreamTimeoutMs,
    metrics,
    operationOf,
  });
  const sessionMs = config.session.maxSeconds * 1000;
  return {
    config,
    upstreamUrl,
    upstream,
    operations,
    metrics,
    tracker: new VisitTracker(upstream, metrics, log),
    throttle: new Throttle(new MemoryCounters(now), config.rateLimits),
    revocations: new MemoryRevocations(sessionMs),
    strikes: new MemoryCounters(now),
    locks: new MemoryLocks(),
    now,
    sandboxUrl: options.sandbox ? upstreamUrl : undefined,
  };
}

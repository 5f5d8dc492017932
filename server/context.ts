// What every route of the portal shares: configuration, the upstream and its declared operations, the security
// stores, tracking and the clock.
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "#server/config.ts";
import { FailureRun, FailureRuns } from "#server/plugins/logging.ts";
import { Metrics } from "#server/plugins/metrics.ts";
import { DeviceCookies } from "#server/security/device-cookie.ts";
import { Throttle } from "#server/security/throttle.ts";
import { recordSeal } from "#server/session/record-seal.ts";
import type { ActivityStore } from "#server/stores/activity.ts";
import type { CounterStore } from "#server/stores/counters.ts";
import { createStores, type StoreOptions, type Stores } from "#server/stores/create-stores.ts";
import type { LockStore } from "#server/stores/locks.ts";
import type { TrustedDevices } from "#server/stores/trusted-devices.ts";
import { createUpstreamClient, type UpstreamClient } from "#server/upstream/client.ts";
import { UpstreamHealth } from "#server/upstream/health.ts";
import { loadOperations, type Operation, type OperationId } from "#server/upstream/operations.ts";
import { VisitTracker } from "#server/upstream/tracking.ts";

export type AppContext = {
  config: Config;
  upstreamUrl: string;
  /** The server's own typed calls to the upstream. */
  upstream: UpstreamClient;
  operations: Operation[];
  operationById: ReadonlyMap<OperationId, Operation>;
  metrics: Metrics;
  /** The upstream's state as /readyz's probe last found it. */
  upstreamHealth: UpstreamHealth;
  /** Permissions fetches that failed since the last one that did not: logged when they start failing and end. */
  permissionFaults: FailureRun;
  /**
   * Forwarded calls (a sign-in among them) the upstream failed, per operation: logged when they start and when the
   * operation is answered again; /metrics counts each (`portal_upstream_errors_total`).
   */
  forwardFaults: FailureRuns;
  tracker: VisitTracker;
  /** The device cookies: the throttle's own budgets, and the device id an MFA validation carries upstream. */
  devices: DeviceCookies;
  throttle: Throttle;
  /** The security state: in memory, or shared by every replica through Redis (REDIS_URL). */
  stores: Stores;
  /** Wrong MFA codes per pending session id. */
  strikes: CounterStore;
  /** One MFA validation in flight per pending session. */
  locks: LockStore;
  now: () => number;
  /** Set when the embedded sandbox runs: its address, for the sandbox-only mailbox page. */
  sandboxUrl: string | undefined;
};

/**
 * The account-security state every route reaches as `request.server.account`: each person's security activity and
 * trusted browsers (each session's record is the ledger's, `app.ledger`).
 */
export type AccountState = {
  activity: ActivityStore;
  /** The browsers that skip the MFA code, per person. */
  devices: TrustedDevices;
  now: () => number;
  /** The idle limit and the time a session's `seen` may lag behind it: a session not seen within it has ended. */
  liveMs: number;
};

declare module "fastify" {
  interface FastifyInstance {
    /** Every app has its stores (a test's are in memory): there is no app without them. */
    account: AccountState;
  }
}

export type ContextOptions = {
  now?: () => number;
  sandbox?: boolean;
  /** Tests only: Redis's bounds stretched by the suite's factor on a busy machine (else redis-link.ts's defaults). */
  redisBounds?: Pick<StoreOptions, "connectTimeoutMs" | "commandTimeoutMs">;
};

export async function createContext(
  config: Config,
  upstreamUrl: string,
  log: FastifyBaseLogger,
  options: ContextOptions = {},
): Promise<AppContext> {
  const now = options.now ?? Date.now;
  const metrics = new Metrics();
  const operations = loadOperations();
  const byRoute = new Map(operations.map((operation) => [`${operation.method} ${operation.path}`, operation]));
  const operationOf = (method: string, path: string) => byRoute.get(`${method} ${path}`)?.operationId ?? path;
  const readsOf = (method: string, path: string) => byRoute.get(`${method} ${path}`)?.reads ?? "body";
  const upstream = createUpstreamClient({
    baseUrl: upstreamUrl,
    timeoutMs: config.upstreamTimeoutMs,
    metrics,
    operationOf,
    readsOf,
  });
  const stores = createStores({
    redisUrl: config.redis.url,
    keyPrefix: config.redis.keyPrefix,
    sessionMaxMs: config.session.maxSeconds * 1000,
    seal: recordSeal(config.sessionKeys),
    activityMs: config.securityLogDays * 24 * 3600_000,
    log,
    now,
    onRedisState: (up) => metrics.redisState(up),
    onRedisRefused: () => metrics.redisRefused(),
    ...options.redisBounds,
  });
  // The first pass with Redis is made before the first request (bounded: Redis may be down).
  await stores.ready();
  const devices = new DeviceCookies(config.sessionKeys, config.cookieSecure);
  return {
    config,
    upstreamUrl,
    upstream,
    operations,
    operationById: new Map(operations.map((operation) => [operation.operationId, operation])),
    metrics,
    upstreamHealth: new UpstreamHealth(metrics, log),
    permissionFaults: new FailureRun(
      log,
      "permissions not usable: pages that need them say they are still checking until the upstream answers",
      "permissions usable again",
    ),
    forwardFaults: new FailureRuns(log, "upstream fault", "upstream answers again", "operation"),
    tracker: new VisitTracker(upstream, metrics, log),
    devices,
    throttle: new Throttle(stores.counters, config.rateLimits, devices),
    stores,
    strikes: stores.counters,
    locks: stores.locks,
    now,
    sandboxUrl: options.sandbox ? upstreamUrl : undefined,
  };
}

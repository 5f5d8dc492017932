// The security state's stores: in memory without REDIS_URL (one replica), shared through Redis with it.
import { ActivityStore, activityListKind } from "#server/stores/activity.ts";
import { type CounterStore, MemoryCounters } from "#server/stores/counters.ts";
import { RedisCounters } from "#server/stores/counters-redis.ts";
import { MemoryFailureTallies } from "#server/stores/failure-tallies.ts";
import { RedisFailureTallies } from "#server/stores/failure-tallies-redis.ts";
import { MemoryLedger, type SessionLedger } from "#server/stores/ledger.ts";
import { type RecordSeal, RedisLedger } from "#server/stores/ledger-redis.ts";
import { type LockStore, MemoryLocks } from "#server/stores/locks.ts";
import { RedisLocks } from "#server/stores/locks-redis.ts";
import { MemoryPersonLists } from "#server/stores/person-lists.ts";
import { RedisPersonLists } from "#server/stores/person-lists-redis.ts";
import { redisKeys } from "#server/stores/redis-keys.ts";
import { CONNECT_TIMEOUT_MS, type LinkOptions, RedisLink, redactUrl } from "#server/stores/redis-link.ts";
import { TrustedDevices, trustedDeviceKind } from "#server/stores/trusted-devices.ts";

/** The link's own bounds and log (server/stores/redis-link.ts) are handed to it as they are. */
export type StoreOptions = Pick<LinkOptions, "log" | "connectTimeoutMs" | "commandTimeoutMs" | "retryStrategy"> & {
  /** redis:// or rediss://; unset, every store lives in this process's memory. */
  redisUrl: string | undefined;
  /** Put before every key and channel name (REDIS_KEY_PREFIX), so several portals can share one Redis. */
  keyPrefix: string;
  /** How long a session's record is kept: SESSION_MAX_HOURS in milliseconds. */
  sessionMaxMs: number;
  /** How a record is sealed in Redis (server/session/record-seal.ts). */
  seal: RecordSeal;
  /** How long a person's security events are kept: SECURITY_LOG_DAYS in milliseconds. */
  activityMs: number;
  /** The app's clock (the tests' fake one): every store reads it, only Redis's own expiries keep Redis's time. */
  now: () => number;
  /** Called on every change between Redis up and down, for example to set `portal_redis_up`. */
  onRedisState?: (up: boolean) => void;
  /** Called for each write Redis refused at its maxmemory (kept in this replica instead). */
  onRedisRefused?: () => void;
};

export type StoresHealth =
  | { backend: "memory" }
  /** `up`: Redis answered a PING in time. `pendingSessionWrites`: made during an outage, not yet shared. */
  | { backend: "redis"; up: boolean; pendingSessionWrites: number };

export type Stores = {
  backend: "memory" | "redis";
  /** Every session's record (server/stores/ledger.ts). */
  ledger: SessionLedger;
  /** Throttles (key per group and IP or user, one-minute windows) and wrong-code strikes (key per session id). */
  counters: CounterStore;
  /** One MFA validate in flight per session. */
  locks: LockStore;
  /** Each person's recent security events and counted failures, kept for `activityMs`. */
  activity: ActivityStore;
  /** Each person's browsers that skip the MFA code, each kept for TRUST_MS after its last passed code. */
  devices: TrustedDevices;
  /** Resolves when the first pass with Redis is over, or after `timeoutMs`; at once in memory. */
  ready(timeoutMs?: number): Promise<void>;
  /** For /readyz: report it, but an unreachable Redis need not take the replica out (it keeps serving). */
  health(): Promise<StoresHealth>;
  close(): Promise<void>;
};

export function createStores(options: StoreOptions): Stores {
  const { activityMs } = options;
  if (!options.redisUrl) {
    options.log.info(
      { event: "stores", backend: "memory" },
      "REDIS_URL is not set: sessions, throttles and wrong-code counts live in this process (one replica only: a restart ends every session)",
    );
    return {
      backend: "memory",
      ledger: new MemoryLedger(options.sessionMaxMs, options.now),
      counters: new MemoryCounters(options.now),
      locks: new MemoryLocks(options.now),
      activity: memoryActivity(activityMs, options.now),
      devices: new TrustedDevices(new MemoryPersonLists(trustedDeviceKind, options.now)),
      ready: async () => {},
      health: async () => ({ backend: "memory" }),
      close: async () => {},
    };
  }
  const keys = redisKeys(options.keyPrefix);
  const link = new RedisLink({
    ...options,
    url: options.redisUrl,
    channel: keys.channel,
    onState: options.onRedisState,
    onRefused: options.onRedisRefused,
  });
  options.log.info(
    { event: "stores", backend: "redis", redis: redactUrl(options.redisUrl), prefix: options.keyPrefix },
    "sessions, throttles and wrong-code counts are shared through redis",
  );
  const ledger = new RedisLedger(link, keys, options.sessionMaxMs, options.seal);
  const deviceLists = new RedisPersonLists(link, keys, trustedDeviceKind);
  const activityKind = activityListKind(activityMs);
  const activityLists = new RedisPersonLists(link, keys, activityKind);
  const failures = new RedisFailureTallies(
    link,
    keys,
    activityMs,
    (person) => keys.list(activityKind.name, person).order,
    (person) => activityLists.hasHere(person),
  );
  return {
    backend: "redis",
    ledger,
    counters: new RedisCounters(link, keys),
    locks: new RedisLocks(link, keys),
    activity: new ActivityStore(activityLists, failures),
    devices: new TrustedDevices(deviceLists),
    ready: (timeoutMs = 2 * (options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS)) => ledger.ready(timeoutMs),
    health: async () => ({ backend: "redis", up: await link.ping(), pendingSessionWrites: ledger.pending }),
    close: async () => {
      // A session's write or ending, or a list step, still pending gets one last, bounded, try.
      if (ledger.pending > 0 && link.usable) await ledger.sync();
      // Redis away at the stop: the endings and writes kept for it go with this replica, and the log says so.
      if (ledger.pending > 0)
        options.log.warn(
          { event: "session-writes-lost", pending: ledger.pending },
          "redis unreachable at shutdown: session endings and writes made during the outage are lost with this replica",
        );
      for (const { waiting } of [activityLists, deviceLists, failures])
        if (waiting.size > 0 && link.usable) await waiting.run();
      await link.close();
    },
  };
}

/** The activity in this process: the failures counted only for a person the list knows. */
function memoryActivity(activityMs: number, now: () => number): ActivityStore {
  const lists = new MemoryPersonLists(activityListKind(activityMs), now);
  return new ActivityStore(lists, new MemoryFailureTallies(activityMs, (person) => lists.has(person), now));
}

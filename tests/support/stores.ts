// What the store tests share: stores with short test timeouts, replicas on one Redis, and a log that keeps its lines.
import { after, before } from "node:test";
import { RedisServer } from "#harness/redis-server.ts";
import { createStores, type StoreOptions, type Stores } from "#server/stores/create-stores.ts";
import { type ListKind, MemoryPersonLists, type PersonLists } from "#server/stores/person-lists.ts";
import { RedisPersonLists } from "#server/stores/person-lists-redis.ts";
import { redisKeys } from "#server/stores/redis-keys.ts";
import { RedisLink, type StoreLog } from "#server/stores/redis-link.ts";
import { scaled, until } from "#tests/support/waiting.ts";

export type LogLine = { level: "info" | "warn"; event: unknown; message: string; fields: unknown };

/** A logger for the stores that keeps what they said. */
export function keptLog(): StoreLog & { lines: LogLine[]; events(name: string): number } {
  const lines: LogLine[] = [];
  const record =
    (level: LogLine["level"]) =>
    (first: unknown, message?: unknown): void => {
      const event = typeof first === "object" && first !== null && "event" in first ? first.event : undefined;
      lines.push({ level, event, message: String(message ?? first), fields: first });
    };
  return {
    lines,
    info: record("info"),
    warn: record("warn"),
    events: (name) => lines.filter((line) => line.event === name).length,
  };
}

/** Test bounds: Redis must connect in 300 ms and answer in 200 ms, so outages show quickly. */
export function testStores(redisUrl: string | undefined, options: Partial<StoreOptions> = {}): Stores {
  return createStores({
    redisUrl,
    keyPrefix: "test:",
    sessionMaxMs: 60_000,
    activityMs: 90 * 24 * 3600_000,
    log: keptLog(),
    now: Date.now,
    connectTimeoutMs: scaled(300),
    commandTimeoutMs: scaled(200),
    ...options,
  });
}

/**
 * For a describe block: two replicas' stores, A and B, on one real redis-server started before its tests and stopped
 * after them. `open` gives one more replica's, under `prefix` (another prefix is another portal).
 */
export function replicasOnOneRedis(): {
  readonly a: Stores;
  readonly b: Stores;
  open(prefix?: string): Promise<Stores>;
} {
  let server: RedisServer | undefined;
  const opened: Stores[] = [];
  const open = async (prefix = "shared:") => {
    if (!server) throw new Error("the replicas' redis-server starts before the tests");
    const stores = testStores(server.url, { keyPrefix: prefix });
    opened.push(stores);
    await stores.ready();
    return stores;
  };
  before(async () => {
    server = await RedisServer.start();
    await open();
    await open();
  });
  after(async () => {
    await Promise.all(opened.map((stores) => stores.close()));
    await server?.stop();
  });
  const replica = (index: number) => {
    const stores = opened[index];
    if (!stores) throw new Error("the replicas start before the tests");
    return stores;
  };
  return {
    get a() {
      return replica(0);
    },
    get b() {
      return replica(1);
    },
    open,
  };
}

/**
 * One kind of per-person list on its own, in memory or on the Redis at `redisUrl` (under its own prefix, with the
 * test bounds above); `ready` resolves once the Redis link is up.
 */
export function testPersonLists<T extends object>(
  kind: ListKind<T>,
  redisUrl: string | undefined,
  keyPrefix = "test:",
): { lists: PersonLists<T>; link?: RedisLink; ready(): Promise<void>; close(): Promise<void> } {
  if (!redisUrl) return { lists: new MemoryPersonLists(kind, Date.now), ready: async () => {}, close: async () => {} };
  const keys = redisKeys(keyPrefix);
  const link = new RedisLink({
    url: redisUrl,
    log: keptLog(),
    now: Date.now,
    channel: keys.channel,
    connectTimeoutMs: scaled(300),
    commandTimeoutMs: scaled(200),
  });
  return {
    lists: new RedisPersonLists(link, keys, kind),
    link,
    ready: () => until(() => link.usable, 3_000, "the redis link"),
    close: () => link.close(),
  };
}

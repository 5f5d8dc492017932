// What the store tests share: stores with short test timeouts, replicas on one Redis, session records and a ledger of
// their own, and a log that keeps its lines.
import { randomUUID } from "node:crypto";
import { after, before } from "node:test";
import { RedisServer } from "#harness/redis-server.ts";
import type { SessionRecord } from "#server/session/record.ts";
import { recordSeal } from "#server/session/record-seal.ts";
import { createStores, type StoreOptions, type Stores } from "#server/stores/create-stores.ts";
import { type RecordSeal, RedisLedger } from "#server/stores/ledger-redis.ts";
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

/** How the stores' replicas seal the upstream token in Redis: one session key, the same for every replica. */
export const testSeal: RecordSeal = recordSeal([Buffer.alloc(32, 7)]);

/** A signed-in session's record for `person`, born (and last seen) at `born`, with a token of its own. */
export function testRecord(person: string, born: number, extra: Partial<SessionRecord> = {}): SessionRecord {
  return {
    person,
    auth: {
      stage: "signed-in",
      site: "client",
      userName: person.split("/").at(-1) ?? "alice",
      loginMessage: "Success",
      token: `token-${randomUUID()}`,
      company: "ACME",
    },
    born,
    seen: born,
    device: "Chrome on Windows",
    address: "203.0.113.9",
    ...extra,
  };
}

/** Test bounds: Redis must connect in 300 ms and answer in 200 ms, so outages show quickly. */
export function testStores(redisUrl: string | undefined, options: Partial<StoreOptions> = {}): Stores {
  return createStores({
    redisUrl,
    keyPrefix: "test:",
    sessionMaxMs: 60_000,
    seal: testSeal,
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

/** A Redis link with the test bounds above, on the clock `now`, its state changes told to `onState`. */
function testLink(
  redisUrl: string,
  keyPrefix: string,
  now: () => number,
  onState?: (up: boolean) => void,
  log: StoreLog = keptLog(),
): RedisLink {
  return new RedisLink({
    url: redisUrl,
    log,
    now,
    channel: redisKeys(keyPrefix).channel,
    onState,
    connectTimeoutMs: scaled(300),
    commandTimeoutMs: scaled(200),
  });
}

/**
 * One replica's Redis ledger on its own link (the test bounds above), on the clock `now`: what its health reports
 * (`pending`), its link and what the link logged are the test's to read. `ready` resolves once its first pass with
 * Redis is over.
 */
export function testRedisLedger(
  redisUrl: string,
  {
    keyPrefix = "test:",
    lifetimeMs = 60_000,
    now = Date.now,
    seal = testSeal,
    maxBytes,
  }: { keyPrefix?: string; lifetimeMs?: number; now?: () => number; seal?: RecordSeal; maxBytes?: number } = {},
): {
  ledger: RedisLedger;
  link: RedisLink;
  log: ReturnType<typeof keptLog>;
  ready(): Promise<void>;
  close(): Promise<void>;
} {
  const log = keptLog();
  const link = testLink(redisUrl, keyPrefix, now, undefined, log);
  const ledger = new RedisLedger(link, redisKeys(keyPrefix), lifetimeMs, seal, maxBytes);
  return { ledger, link, log, ready: () => ledger.ready(scaled(3_000)), close: () => link.close() };
}

/**
 * One kind of per-person list on its own, in memory or on the Redis at `redisUrl` (under its own prefix, with the
 * test bounds above); `ready` resolves once the Redis link is up.
 */
export function testPersonLists<T extends object>(
  kind: ListKind<T>,
  redisUrl: string | undefined,
  keyPrefix = "test:",
  { onState }: { onState?: (up: boolean) => void } = {},
): { lists: PersonLists<T>; link?: RedisLink; ready(): Promise<void>; close(): Promise<void> } {
  if (!redisUrl) return { lists: new MemoryPersonLists(kind, Date.now), ready: async () => {}, close: async () => {} };
  const link = testLink(redisUrl, keyPrefix, Date.now, onState);
  return {
    lists: new RedisPersonLists(link, redisKeys(keyPrefix), kind),
    link,
    ready: () => until(() => link.usable, 3_000, "the redis link"),
    close: () => link.close(),
  };
}

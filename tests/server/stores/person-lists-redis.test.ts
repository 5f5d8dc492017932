// server/stores/person-lists-redis.ts on two replicas and one real redis-server: a full Redis still takes a removal,
// what a replica listed or removed while Redis was away reaches Redis when it returns, and the bound never counts a
// session already revoked.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { Redis } from "ioredis";
import { RedisServer } from "#harness/redis-server.ts";
import type { Stores } from "#server/stores/create-stores.ts";
import { SESSIONS_PER_PERSON, type SessionEntry } from "#server/stores/session-registry.ts";
import { keptLog, testStores } from "#tests/support/stores.ts";
import { until } from "#tests/support/waiting.ts";

const entry = (began: number): SessionEntry => ({
  sid: randomUUID(),
  began,
  seen: began,
  device: "Chrome on Windows",
  address: "203.0.113.9",
});
const person = () => `client/acme/${randomUUID()}`;
const sids = async (stores: Stores, who: string) => (await stores.sessions.list(who)).sessions.map(({ sid }) => sid);

type Replica = { stores: Stores; log: ReturnType<typeof keptLog> };

describe("redis per-person lists on two replicas", () => {
  let server: RedisServer;
  let raw: Redis;
  let a: Replica;
  let b: Replica;
  const prefix = `lists-${randomUUID()}:`;
  const open = async (): Promise<Replica> => {
    const log = keptLog();
    const stores = testStores(server.url, { keyPrefix: prefix, log, sessionMaxMs: 600_000 });
    await stores.ready();
    return { stores, log };
  };
  const usable = async ({ stores }: Replica) => {
    const health = await stores.health();
    return health.backend === "redis" && health.up;
  };
  const listed = (who: string) => raw.zcard(`${prefix}sessions:${who}:order`);

  before(async () => {
    server = await RedisServer.start();
    raw = new Redis(server.url);
    a = await open();
    b = await open();
  });
  after(async () => {
    raw.disconnect();
    await Promise.all([a.stores.close(), b.stores.close()]);
    await server.stop();
  });

  it("a full Redis still takes a removal, and is no outage", async () => {
    const who = person();
    const now = Date.now();
    const sessions = [entry(now - 2), entry(now - 1)];
    for (const session of sessions) await a.stores.sessions.add(who, session);
    await server.config("maxmemory", "1"); // below what it holds: every write that could grow it is refused
    try {
      await b.stores.sessions.remove(who, sessions[1]?.sid ?? "");
      assert.equal(await listed(who), 1, "the removal reached Redis");
      assert.ok(await usable(b), "the link stays up");
      assert.equal(b.log.events("redis-down"), 0);
    } finally {
      await server.config("maxmemory", "0");
    }
  });
});

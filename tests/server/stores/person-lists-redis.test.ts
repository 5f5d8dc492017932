// server/stores/person-lists-redis.ts on two replicas and one real redis-server: a full Redis still takes a removal,
// what a replica listed or removed while Redis was away reaches Redis when it returns, and the bound never counts a
// session already revoked.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { Redis } from "ioredis";
import { RedisServer } from "#harness/redis-server.ts";
import type { Stores } from "#server/stores/create-stores.ts";
import { SETTLE_MS } from "#server/stores/person-lists-redis.ts";
import { SESSIONS_PER_PERSON, type SessionEntry } from "#server/stores/session-registry.ts";
import { slowLink } from "#tests/support/slow-link.ts";
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

  /** A person with SESSIONS_PER_PERSON sessions listed by A, the oldest first. */
  const full = async (who: string) => {
    const now = Date.now() - 60_000;
    const sessions = Array.from({ length: SESSIONS_PER_PERSON }, (_, index) => entry(now + index));
    for (const session of sessions) assert.deepEqual(await a.stores.sessions.add(who, session), []);
    return sessions.map(({ sid }) => sid);
  };

  it("the bound never counts a session already revoked, even when its removal never reached Redis", async () => {
    const who = person();
    const [kept, ...signedOut] = await full(who);
    for (const sid of signedOut) await b.stores.revocations.revoke(sid); // revoked, never taken off the list
    assert.deepEqual(await a.stores.sessions.add(who, entry(Date.now())), [], "no live session ended");
    assert.ok((await sids(a.stores, who)).includes(kept ?? ""));
  });

  it("what a replica listed or removed while Redis was away reaches Redis when it returns", async () => {
    const who = person();
    const [kept, ...signedOut] = await full(who);
    server.freeze();
    try {
      for (const replica of [a, b]) {
        await replica.stores.counters.hit(`k|${randomUUID()}`, 60_000); // times out: the replica sees Redis away
        await until(async () => !(await usable(replica)), 2_000, "the replica to see Redis away");
      }
      const during = entry(Date.now());
      for (const sid of signedOut) await b.stores.sessions.remove(who, sid); // signed out on B
      await b.stores.sessions.add(who, during); // signed in on B
      server.thaw();
      await until(async () => (await usable(a)) && (await usable(b)), 5_000, "both links back");
      await until(async () => (await listed(who)) === 2, 3_000, "the outage's additions and removals in Redis");
      const list = await a.stores.sessions.list(who);
      assert.equal(list.complete, true);
      assert.deepEqual(
        list.sessions.map(({ sid }) => sid),
        [during.sid, kept],
        "A lists the session signed in on B during the outage",
      );
      assert.deepEqual(await a.stores.sessions.add(who, entry(Date.now())), [], "the bound ends nobody");
    } finally {
      server.thaw();
    }
  });

  it("after Redis returns, the bound waits for a replica not back yet to send the sign-outs it made meanwhile", async () => {
    let offset = 0; // the lists' clock: the settle passes without waiting for it
    const target = { host: "127.0.0.1", port: server.port };
    let relay = await slowLink(target, 0);
    let cUp = false;
    const c = testStores(server.url, {
      keyPrefix: prefix,
      sessionMaxMs: 600_000,
      now: () => Date.now() + offset,
      onRedisState: (up) => {
        cUp = up;
      },
    });
    const d = testStores(relay.url, { keyPrefix: prefix, sessionMaxMs: 600_000 }); // reaches Redis through the relay
    try {
      await Promise.all([c.ready(), d.ready()]);
      const who = person();
      const start = Date.now() - 60_000;
      const sessions = Array.from({ length: SESSIONS_PER_PERSON }, (_, index) => entry(start + index));
      for (const session of sessions) assert.deepEqual(await c.sessions.add(who, session), []);
      const [kept, ...signedOut] = sessions.map(({ sid }) => sid);
      server.freeze();
      try {
        for (const stores of [c, d]) {
          await stores.counters.hit(`k|${randomUUID()}`, 60_000);
          await until(async () => !(await usable({ stores, log: keptLog() })), 2_000, "Redis away");
        }
        for (const sid of signedOut) {
          await d.revocations.revoke(sid);
          await d.sessions.remove(who, sid);
        }
        await relay.close(); // D stays cut off when Redis returns
      } finally {
        server.thaw();
      }
      await until(() => cUp, 5_000, "C's link back");
      assert.deepEqual(await c.sessions.add(who, entry(Date.now())), [], "no live session ended for D's sign-outs");
      relay = await slowLink(target, 0, relay.port); // D back
      await until(async () => (await listed(who)) === 2, 10_000, "D's sign-outs in Redis");
      offset += SETTLE_MS;
      const dropped: string[] = [];
      for (let index = 0; index < SESSIONS_PER_PERSON - 1; index++)
        dropped.push(...(await c.sessions.add(who, entry(Date.now() + index))));
      assert.deepEqual(dropped, [kept], "once settled, the bound applies to the true list");
    } finally {
      await Promise.all([c.close(), d.close()]);
      await relay.close();
    }
  });
});

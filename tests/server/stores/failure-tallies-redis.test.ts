// server/stores/failure-tallies-redis.ts on two replicas and one real redis-server: counts made at once are all kept,
// what a replica counted while Redis was away reaches Redis when it returns, and a full Redis still counts.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { Redis } from "ioredis";
import { RedisServer } from "#harness/redis-server.ts";
import type { Stores } from "#server/stores/create-stores.ts";
import type { Failure } from "#server/stores/failure-tallies.ts";
import { testStores } from "#tests/support/stores.ts";
import { until } from "#tests/support/waiting.ts";

const person = () => `client/acme/${randomUUID()}`;
const failure = (address: string): Failure => ({
  kind: "sign-in.failed",
  at: Date.now(),
  device: "Firefox on Windows",
  address,
  source: address,
});
const countOf = async (stores: Stores, who: string) => (await stores.activity.recent(who)).failures.since(0)[0];
/** A person with activity, so that a failed sign-in naming them is counted. */
const known = async (stores: Stores) => {
  const who = person();
  await stores.activity.record(who, { event: "sign-out", at: Date.now(), device: "Firefox", address: "192.0.2.1" });
  return who;
};

describe("redis failure tallies on two replicas", () => {
  let server: RedisServer;
  let raw: Redis;
  let a: Stores;
  let b: Stores;
  const prefix = `failures-${randomUUID()}:`;
  const usable = async (stores: Stores) => {
    const health = await stores.health();
    return health.backend === "redis" && health.up;
  };

  before(async () => {
    server = await RedisServer.start();
    raw = new Redis(server.url);
    a = testStores(server.url, { keyPrefix: prefix, activityMs: 600_000 });
    b = testStores(server.url, { keyPrefix: prefix, activityMs: 600_000 });
    await Promise.all([a.ready(), b.ready()]);
  });
  after(async () => {
    raw.disconnect();
    await Promise.all([a.close(), b.close()]);
    await server.stop();
  });

  it("keeps every count two replicas make at once", async () => {
    const who = await known(a);
    await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        (index % 2 ? a : b).activity.failed(who, failure(`203.0.113.${index % 7}`), true),
      ),
    );
    for (const stores of [a, b]) {
      const tally = await countOf(stores, who);
      assert.equal(tally?.count, 200);
      assert.equal(tally?.addresses, 7);
    }
  });

  it("what a replica counted while Redis was away reaches Redis when it returns", async () => {
    const who = await known(a);
    await a.activity.failed(who, failure("203.0.113.1"), true);
    await b.activity.record(who, { event: "sign-out", at: Date.now(), device: "Firefox", address: "192.0.2.1" });
    server.freeze();
    try {
      for (const stores of [a, b]) {
        await stores.counters.hit(`k|${randomUUID()}`, 60_000); // times out: the replica sees Redis away
        await until(async () => !(await usable(stores)), 2_000, "the replica to see Redis away");
      }
      for (let attempt = 0; attempt < 3; attempt += 1) await b.activity.failed(who, failure("203.0.113.2"), true);
      const meanwhile = await b.activity.recent(who);
      assert.equal(meanwhile.complete, false, "said to be incomplete");
      assert.equal(meanwhile.failures.since(0)[0]?.count, 3, "what B counted itself");
    } finally {
      server.thaw();
    }
    await until(async () => (await usable(a)) && (await usable(b)), 5_000, "both links back");
    await until(async () => (await countOf(a, who))?.count === 4, 3_000, "B's counts in Redis");
    assert.equal((await countOf(a, who))?.addresses, 2);
    assert.equal((await a.activity.recent(who)).complete, true);
  });

  it("a full Redis still takes a count, and is no outage", async () => {
    const who = await known(a);
    await server.config("maxmemory", "1"); // below what it holds: every write that could grow it is refused
    try {
      await b.activity.failed(who, failure("203.0.113.1"), true);
      assert.equal((await countOf(a, who))?.count, 1, "the count reached Redis");
      assert.ok(await usable(b), "the link stays up");
    } finally {
      await server.config("maxmemory", "0");
    }
  });

  it("reads a record Redis gives back with a device label no User-Agent chose, or as none when it is not one", async () => {
    const who = person();
    const key = `${prefix}failures:${who}`;
    const tally = { count: 2, first: 1, last: Date.now(), device: "Call 0800 555 0100", address: "a" };
    const periods = [{ since: 0, tallies: { "mfa.code-wrong": tally } }];
    await raw.set(key, JSON.stringify({ periods, addresses: { "mfa.code-wrong": { seen: [[7, 1]], dropped: 0 } } }));
    assert.equal((await countOf(a, who))?.device, "Unknown device");
    assert.equal((await countOf(a, who))?.addresses, 1);
    await raw.set(key, "not a record");
    assert.deepEqual((await a.activity.recent(who)).failures.periods, []);
  });

  it("takes a value kept before the periods for none, and counts afresh over it", async () => {
    const who = await known(a);
    const key = `${prefix}failures:${who}`;
    const tally = { count: 9, first: 1, last: Date.now(), device: "Firefox", address: "a", sources: [1], more: false };
    await raw.set(key, JSON.stringify({ open: { since: 0, tallies: { "sign-in.failed": tally } } }));
    assert.deepEqual((await a.activity.recent(who)).failures.periods, []);
    await b.activity.signedIn(who, { event: "mfa.passed", at: Date.now(), device: "Firefox", address: "192.0.2.1" });
    await b.activity.failed(who, failure("203.0.113.1"), true);
    assert.equal((await countOf(a, who))?.count, 1);
  });
});

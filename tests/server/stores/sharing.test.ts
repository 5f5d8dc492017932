// Two replicas' stores on one redis-server share revocations, counts and locks; a replica started later loads them.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { RedisServer } from "#harness/redis-server.ts";
import type { Stores } from "#server/stores/create-stores.ts";
import { testStores, until } from "#tests/support/stores.ts";

describe("two replicas on one redis", () => {
  let server: RedisServer;
  let a: Stores;
  let b: Stores;
  const opened: Stores[] = [];
  const open = async (prefix = "shared:") => {
    const stores = testStores(server.url, { keyPrefix: prefix });
    opened.push(stores);
    await stores.ready();
    return stores;
  };

  before(async () => {
    server = await RedisServer.start();
    a = await open();
    b = await open();
  });
  after(async () => {
    await Promise.all(opened.map((stores) => stores.close()));
    await server.stop();
  });

  it("a revocation on A is refused on B shortly after (pub/sub), with no Redis call in has()", async () => {
    const sid = randomUUID();
    await a.revocations.revoke(sid);
    await until(() => b.revocations.has(sid), 1_000, "B to hear the revocation");
  });

  it("a replica started after the revocation refuses it too", async () => {
    const sid = randomUUID();
    await b.revocations.revoke(sid);
    const c = await open();
    assert.equal(c.revocations.has(sid), true, "loaded at start");
  });

  it("throttle counts add up across A and B", async () => {
    const key = `sign-in|ip|${randomUUID()}`;
    const counts = [];
    for (const stores of [a, b, a, b, b]) counts.push((await stores.counters.hit(key, 60_000)).count);
    assert.deepEqual(counts, [1, 2, 3, 4, 5]);
    assert.equal((await a.counters.peek(key)).count, 5);
  });

  it("wrong MFA codes counted in parallel on A and B add up", async () => {
    const key = `strikes|${randomUUID()}`;
    const hits = Array.from({ length: 10 }, (_, index) => (index % 2 ? a : b).counters.hit(key, 60_000));
    const counts = (await Promise.all(hits)).map(({ count }) => count).sort((x, y) => x - y);
    assert.deepEqual(counts, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it("a lock held on A is refused on B; B cannot release it; A's release frees it", async () => {
    const key = `mfa-validate|${randomUUID()}`;
    assert.equal(await a.locks.acquire(key, 5_000), true);
    assert.equal(await b.locks.acquire(key, 5_000), false);
    await b.locks.release(key);
    assert.equal(await b.locks.acquire(key, 5_000), false, "only its holder releases it");
    await a.locks.release(key);
    assert.equal(await b.locks.acquire(key, 5_000), true);
    await b.locks.release(key);
  });

  it("another key prefix is another portal: nothing is shared with it", async () => {
    const other = await open("billing:");
    const sid = randomUUID();
    const key = `sign-in|ip|${randomUUID()}`;
    await a.revocations.revoke(sid);
    await a.counters.hit(key, 60_000);
    await until(() => b.revocations.has(sid), 1_000, "B to hear it");
    assert.equal(other.revocations.has(sid), false);
    assert.equal((await other.counters.peek(key)).count, 0);
    const late = await open("billing:");
    assert.equal(late.revocations.has(sid), false);
  });
});

// server/stores/memory-bounds.ts: the in-memory stores read the app's clock, and keep at most their bound.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RedisServer } from "#harness/redis-server.ts";
import { testStores } from "#tests/support/stores.ts";

describe("in-memory stores", () => {
  it("follow the app's clock (the tests' fake clock), and so do the Redis stores' own copies while Redis is away", async (t) => {
    const redis = await RedisServer.start();
    await redis.stop(); // nothing answers at its address now: the Redis stores keep everything in this replica
    for (const url of [undefined, redis.url]) {
      let time = 1_000_000;
      const stores = testStores(url, { sessionMaxMs: 60_000, now: () => time });
      t.after(() => stores.close());
      await stores.revocations.revoke("sid");
      await stores.counters.hit("key", 60_000);
      assert.equal(await stores.locks.acquire("lock", 60_000), true);
      time += 59_999;
      assert.equal(stores.revocations.has("sid"), true, `${url}: revoked`);
      assert.deepEqual(await stores.counters.peek("key"), { count: 1, resetInMs: 1 });
      assert.equal(await stores.locks.acquire("lock", 60_000), false, `${url}: still held`);
      time += 1;
      assert.equal(stores.revocations.has("sid"), false, `${url}: the revocation ended with the lifetime`);
      assert.deepEqual(await stores.counters.peek("key"), { count: 0, resetInMs: 0 });
      assert.equal(await stores.locks.acquire("lock", 60_000), true, `${url}: the lock freed itself`);
    }
  });

  it("stay bounded: 150,000 distinct keys cost constant time each, the oldest going first", async () => {
    const stores = testStores(undefined);
    const start = performance.now();
    for (let index = 0; index < 150_000; index += 1) await stores.counters.hit(`sign-in|ip|${index}`, 60_000);
    assert.ok(performance.now() - start < 5_000, "no scan past a size");
    assert.equal((await stores.counters.peek("sign-in|ip|0")).count, 0, "the least recently hit went first");
    assert.equal((await stores.counters.peek("sign-in|ip|149999")).count, 1);
  });
});

// server/stores/memory-bounds.ts: the in-memory stores read the app's clock, and keep at most their bound.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RedisServer } from "#harness/redis-server.ts";
import { LINGER_MS, UNAVAILABLE } from "#server/stores/ledger.ts";
import { testRecord, testStores } from "#tests/support/stores.ts";
import { scaled } from "#tests/support/waiting.ts";

describe("in-memory stores", () => {
  it("follow the app's clock (the tests' fake clock), and so do the Redis stores' own copies while Redis is away", async (t) => {
    const redis = await RedisServer.start();
    await redis.stop(); // nothing answers at its address now: the Redis stores keep everything in this replica
    for (const url of [undefined, redis.url]) {
      let time = 1_000_000;
      const stores = testStores(url, { sessionMaxMs: 60_000, now: () => time });
      t.after(() => stores.close());
      /** When the session whose record it holds began; undefined or UNAVAILABLE when it holds none. */
      const born = async () => {
        const found = await stores.ledger.read("sid");
        return typeof found === "object" ? found.born : found;
      };
      stores.ledger.write("sid", testRecord("client/acme/alice", time));
      await stores.counters.hit("key", 60_000);
      assert.equal(await stores.locks.acquire("lock", 60_000), true);
      time += 59_999;
      assert.equal(await born(), 1_000_000, `${url}: the session's record is kept`);
      assert.deepEqual(await stores.counters.peek("key"), { count: 1, resetInMs: 1 });
      assert.equal(await stores.locks.acquire("lock", 60_000), false, `${url}: still held`);
      time += 1;
      assert.deepEqual(await stores.counters.peek("key"), { count: 0, resetInMs: 0 });
      assert.equal(await stores.locks.acquire("lock", 60_000), true, `${url}: the lock freed itself`);
      time += LINGER_MS - 1;
      assert.equal(await born(), 1_000_000, `${url}: kept through the linger`);
      time += 2;
      assert.equal(
        await born(),
        url ? UNAVAILABLE : undefined,
        `${url}: the record went with the lifetime and the linger (one only Redis might hold is not guessed)`,
      );
    }
  });

  it("stay bounded: 150,000 distinct keys cost constant time each, the oldest going first", async () => {
    const stores = testStores(undefined);
    const start = performance.now();
    for (let index = 0; index < 150_000; index += 1) await stores.counters.hit(`sign-in|ip|${index}`, 60_000);
    assert.ok(performance.now() - start < scaled(5_000), "no scan past a size");
    assert.equal((await stores.counters.peek("sign-in|ip|0")).count, 0, "the least recently hit went first");
    assert.equal((await stores.counters.peek("sign-in|ip|149999")).count, 1);
  });
});

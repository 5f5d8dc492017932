// server/stores/counters.ts: the counters' contract, run against both implementations: in memory, and on a real
// redis-server (server/stores/counters-redis.ts).
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { setTimeout as delay } from "node:timers/promises";
import { RedisServer } from "#harness/redis-server.ts";
import type { Stores } from "#server/stores/create-stores.ts";
import { testStores } from "#tests/support/stores.ts";

let server: RedisServer;
describe("server/stores/counters", () => {
  before(async () => {
    server = await RedisServer.start();
  });
  after(() => server.stop());

  for (const backend of ["memory", "redis"] as const) {
    describe(`${backend} counters`, () => {
      let stores: Stores;
      before(async () => {
        const url = backend === "redis" ? server.url : undefined;
        stores = testStores(url, { sessionMaxMs: 400, keyPrefix: `counters-${randomUUID()}:` });
        await stores.ready();
      });
      after(() => stores.close());

      it("count hits in a window whose end the later hits do not move", async () => {
        const key = `sign-in|ip|${randomUUID()}`;
        const first = await stores.counters.hit(key, 10_000);
        assert.equal(first.count, 1);
        assert.ok(first.resetInMs > 9_000 && first.resetInMs <= 10_000, `resetInMs ${first.resetInMs}`);
        await delay(30);
        const second = await stores.counters.hit(key, 60_000);
        assert.equal(second.count, 2);
        assert.ok(second.resetInMs <= first.resetInMs, "the window keeps its end");
      });

      it("peek without counting, and answer 0 for a key never hit", async () => {
        const key = `mfa|user|${randomUUID()}`;
        assert.deepEqual(await stores.counters.peek(key), { count: 0, resetInMs: 0 });
        await stores.counters.hit(key, 5_000);
        const peeked = await stores.counters.peek(key);
        assert.equal(peeked.count, 1);
        assert.ok(peeked.resetInMs > 0 && peeked.resetInMs <= 5_000);
        assert.equal((await stores.counters.peek(key)).count, 1);
      });

      it("give back a hit: the count goes down, never below 0, and the window keeps its end; an absent key stays absent", async () => {
        const key = `sign-in|user|${randomUUID()}`;
        await stores.counters.giveBack(key);
        assert.deepEqual(await stores.counters.peek(key), { count: 0, resetInMs: 0 }, "nothing opened");
        const first = await stores.counters.hit(key, 10_000);
        await stores.counters.hit(key, 10_000);
        await stores.counters.giveBack(key);
        const after = await stores.counters.peek(key);
        assert.equal(after.count, 1);
        assert.ok(after.resetInMs > 0 && after.resetInMs <= first.resetInMs, "the window keeps its end");
        await stores.counters.giveBack(key);
        await stores.counters.giveBack(key);
        assert.equal((await stores.counters.peek(key)).count, 0, "never below 0");
        assert.equal((await stores.counters.hit(key, 10_000)).count, 1);
      });

      it("clear a key, and start a new window once one has ended", async () => {
        const key = `strikes|${randomUUID()}`;
        await stores.counters.hit(key, 150);
        await stores.counters.hit(key, 150);
        await stores.counters.clear(key);
        assert.equal((await stores.counters.peek(key)).count, 0);
        await stores.counters.hit(key, 150);
        await delay(200);
        assert.equal((await stores.counters.hit(key, 150)).count, 1, "a new window");
      });

      it("count 100 hits at once as 1 to 100: atomic, never read-then-write", async () => {
        const key = `reset|user|${randomUUID()}`;
        const counts = await Promise.all(Array.from({ length: 100 }, () => stores.counters.hit(key, 10_000)));
        assert.deepEqual(
          counts.map(({ count }) => count).sort((a, b) => a - b),
          Array.from({ length: 100 }, (_, index) => index + 1),
        );
      });

      it("take windows in fractional milliseconds (a clock's difference)", async () => {
        const key = `sign-in|ip|${randomUUID()}`;
        assert.equal((await stores.counters.hit(key, 1_000.4)).count, 1);
        assert.equal((await stores.counters.hit(key, 1_000.4)).count, 2);
        assert.equal(await stores.locks.acquire(key, 999.5), true);
        assert.equal(await stores.locks.acquire(key, 999.5), false);
        await stores.locks.release(key);
      });

      it("keep keys apart", async () => {
        const [one, two] = [randomUUID(), randomUUID()];
        await stores.counters.hit(one, 10_000);
        await stores.counters.hit(one, 10_000);
        assert.equal((await stores.counters.hit(two, 10_000)).count, 1);
      });
    });
  }
});

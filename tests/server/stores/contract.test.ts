// Each store's contract, run against both implementations: in memory, and on a real redis-server.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { setTimeout as delay } from "node:timers/promises";
import { RedisServer } from "#harness/redis-server.ts";
import type { Stores } from "#server/stores/create-stores.ts";
import { testStores, until } from "#tests/support/stores.ts";

let server: RedisServer;
before(async () => {
  server = await RedisServer.start();
});
after(() => server.stop());

for (const backend of ["memory", "redis"] as const) {
  describe(`${backend} stores`, () => {
    let stores: Stores;
    before(async () => {
      const url = backend === "redis" ? server.url : undefined;
      stores = testStores(url, { sessionMaxMs: 400, keyPrefix: `contract-${randomUUID()}:` });
      await stores.ready();
    });
    after(() => stores.close());

    it("is the backend asked for, and healthy", async () => {
      assert.equal(stores.backend, backend);
      const health = await stores.health();
      assert.deepEqual(health, backend === "memory" ? { backend } : { backend, up: true, pendingRevocations: 0 });
    });

    describe("revocations", () => {
      it("refuse a revoked id, and nothing else", async () => {
        const sid = randomUUID();
        assert.equal(stores.revocations.has(sid), false);
        await stores.revocations.revoke(sid);
        assert.equal(stores.revocations.has(sid), true);
        assert.equal(stores.revocations.has(randomUUID()), false);
        assert.equal(stores.revocations.has(undefined), false);
        assert.equal(stores.revocations.has(""), false);
      });

      it("forget a revoked id once no cookie could carry it (the session's maximum lifetime)", async () => {
        const sid = randomUUID();
        const start = Date.now();
        await stores.revocations.revoke(sid);
        await until(() => !stores.revocations.has(sid), 3_000, "the revocation to expire");
        assert.ok(Date.now() - start >= 350, "kept for the lifetime");
      });
    });

    describe("counters", () => {
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

    describe("locks", () => {
      it("let one holder at a time, until it releases", async () => {
        const key = `mfa-validate|${randomUUID()}`;
        assert.equal(await stores.locks.acquire(key, 5_000), true);
        assert.equal(await stores.locks.acquire(key, 5_000), false);
        await stores.locks.release(key);
        assert.equal(await stores.locks.acquire(key, 5_000), true);
        await stores.locks.release(key);
      });

      it("free themselves after their time, and a release of a lock not held does nothing", async () => {
        const key = `mfa-validate|${randomUUID()}`;
        await stores.locks.release(key);
        assert.equal(await stores.locks.acquire(key, 150), true);
        await delay(250);
        assert.equal(await stores.locks.acquire(key, 5_000), true);
        await stores.locks.release(key);
      });

      it("take 20 racing acquires as exactly one holder", async () => {
        const key = `mfa-validate|${randomUUID()}`;
        const taken = await Promise.all(Array.from({ length: 20 }, () => stores.locks.acquire(key, 5_000)));
        assert.equal(taken.filter(Boolean).length, 1);
        await stores.locks.release(key);
      });
    });
  });
}

describe("in-memory stores", () => {
  it("follow the app's clock (the tests' fake clock)", async () => {
    let time = 1_000_000;
    const stores = testStores(undefined, { sessionMaxMs: 60_000, now: () => time });
    await stores.revocations.revoke("sid");
    await stores.counters.hit("key", 60_000);
    assert.equal(await stores.locks.acquire("lock", 60_000), true);
    time += 59_999;
    assert.equal(stores.revocations.has("sid"), true);
    assert.deepEqual(await stores.counters.peek("key"), { count: 1, resetInMs: 1 });
    time += 1;
    assert.equal(stores.revocations.has("sid"), false);
    assert.deepEqual(await stores.counters.peek("key"), { count: 0, resetInMs: 0 });
    assert.equal(await stores.locks.acquire("lock", 60_000), true);
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

// server/stores/locks.ts: the lock's contract, run against both implementations: in memory, and on a real
// redis-server (server/stores/locks-redis.ts).
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { setTimeout as delay } from "node:timers/promises";
import { RedisServer } from "#harness/redis-server.ts";
import type { Stores } from "#server/stores/create-stores.ts";
import { testStores } from "#tests/support/stores.ts";

let server: RedisServer;
describe("server/stores/locks", () => {
  before(async () => {
    server = await RedisServer.start();
  });
  after(() => server.stop());

  for (const backend of ["memory", "redis"] as const) {
    describe(`${backend} locks`, () => {
      let stores: Stores;
      before(async () => {
        const url = backend === "redis" ? server.url : undefined;
        stores = testStores(url, { sessionMaxMs: 400, keyPrefix: `locks-${randomUUID()}:` });
        await stores.ready();
      });
      after(() => stores.close());

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
  }
});

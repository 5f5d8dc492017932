// server/stores/locks-redis.ts: two replicas' stores on one redis-server share a lock, released only by its holder.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { RedisServer } from "#harness/redis-server.ts";
import type { Stores } from "#server/stores/create-stores.ts";
import { testStores } from "#tests/support/stores.ts";

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
});

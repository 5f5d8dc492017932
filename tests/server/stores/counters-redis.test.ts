// server/stores/counters-redis.ts: two replicas' stores on one redis-server add up their counts.
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
});

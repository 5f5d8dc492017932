// server/stores/counters-redis.ts: two replicas' stores on one redis-server add up their counts.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it } from "node:test";
import { replicasOnOneRedis } from "#tests/support/stores.ts";

describe("two replicas on one redis", () => {
  const replicas = replicasOnOneRedis();

  it("throttle counts add up across A and B", async () => {
    const { a, b } = replicas;
    const key = `sign-in|ip|${randomUUID()}`;
    const counts = [];
    for (const stores of [a, b, a, b, b]) counts.push((await stores.counters.hit(key, 60_000)).count);
    assert.deepEqual(counts, [1, 2, 3, 4, 5]);
    assert.equal((await a.counters.peek(key)).count, 5);
  });

  it("wrong MFA codes counted in parallel on A and B add up", async () => {
    const { a, b } = replicas;
    const key = `strikes|${randomUUID()}`;
    const hits = Array.from({ length: 10 }, (_, index) => (index % 2 ? a : b).counters.hit(key, 60_000));
    const counts = (await Promise.all(hits)).map(({ count }) => count).sort((x, y) => x - y);
    assert.deepEqual(counts, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});

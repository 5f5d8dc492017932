// server/stores/locks-redis.ts: two replicas' stores on one redis-server share a lock, released only by its holder.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it } from "node:test";
import { replicasOnOneRedis } from "#tests/support/stores.ts";

describe("two replicas on one redis", () => {
  const replicas = replicasOnOneRedis();

  it("a lock held on A is refused on B; B cannot release it; A's release frees it", async () => {
    const { a, b } = replicas;
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

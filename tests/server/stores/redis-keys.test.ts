// server/stores/redis-keys.ts: every key and the channel are under REDIS_KEY_PREFIX, so portals sharing one
// redis-server share nothing.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it } from "node:test";
import { replicasOnOneRedis } from "#tests/support/stores.ts";
import { until } from "#tests/support/waiting.ts";

describe("two replicas on one redis", () => {
  const replicas = replicasOnOneRedis();

  it("another key prefix is another portal: nothing is shared with it", async () => {
    const { a, b, open } = replicas;
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

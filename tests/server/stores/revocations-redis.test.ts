// server/stores/revocations-redis.ts: two replicas' stores on one redis-server share revocations, announced on a
// channel; a replica started later loads them.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it } from "node:test";
import { replicasOnOneRedis } from "#tests/support/stores.ts";
import { until } from "#tests/support/waiting.ts";

describe("two replicas on one redis", () => {
  const replicas = replicasOnOneRedis();

  it("a revocation on A is refused on B shortly after (pub/sub), with no Redis call in has()", async () => {
    const { a, b } = replicas;
    const sid = randomUUID();
    await a.revocations.revoke(sid);
    await until(() => b.revocations.has(sid), 1_000, "B to hear the revocation");
  });

  it("a replica started after the revocation refuses it too", async () => {
    const { b, open } = replicas;
    const sid = randomUUID();
    await b.revocations.revoke(sid);
    const c = await open();
    assert.equal(c.revocations.has(sid), true, "loaded at start");
  });
});

// server/stores/redis-keys.ts: every key and the channel are under REDIS_KEY_PREFIX, so portals sharing one
// redis-server share nothing.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it } from "node:test";
import { replicasOnOneRedis, testRecord } from "#tests/support/stores.ts";
import { until } from "#tests/support/waiting.ts";

describe("two replicas on one redis", () => {
  const replicas = replicasOnOneRedis();

  it("another key prefix is another portal: nothing is shared with it", async () => {
    const { a, b, open } = replicas;
    const other = await open("billing:");
    const sid = randomUUID();
    const record = testRecord(`client/acme/${randomUUID()}`, Date.now());
    const key = `sign-in|ip|${randomUUID()}`;
    a.ledger.write(sid, record);
    await a.counters.hit(key, 60_000);
    await until(async () => (await b.ledger.read(sid)) !== undefined, 1_000, "B to read it");
    assert.deepEqual(await b.ledger.read(sid), record);
    assert.equal(await other.ledger.read(sid), undefined);
    assert.deepEqual(await other.ledger.of(record.person), { sessions: [], complete: true });
    assert.equal((await other.counters.peek(key)).count, 0);
    await a.ledger.end(sid, { at: Date.now(), reason: "signed-out" });
    const late = await open("billing:");
    assert.equal(await late.ledger.read(sid), undefined);
  });
});

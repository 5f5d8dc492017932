// server/stores/redis-keys.ts: every key and the channel are under REDIS_KEY_PREFIX, so portals sharing one
// redis-server share nothing.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { RedisServer } from "#harness/redis-server.ts";
import type { Stores } from "#server/stores/create-stores.ts";
import { testStores, until } from "#tests/support/stores.ts";

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

  it("another key prefix is another portal: nothing is shared with it", async () => {
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

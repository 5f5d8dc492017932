// server/stores/revocations-redis.ts: two replicas' stores on one redis-server share revocations, announced on a
// channel; a replica started later loads them.
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

  it("a revocation on A is refused on B shortly after (pub/sub), with no Redis call in has()", async () => {
    const sid = randomUUID();
    await a.revocations.revoke(sid);
    await until(() => b.revocations.has(sid), 1_000, "B to hear the revocation");
  });

  it("a replica started after the revocation refuses it too", async () => {
    const sid = randomUUID();
    await b.revocations.revoke(sid);
    const c = await open();
    assert.equal(c.revocations.has(sid), true, "loaded at start");
  });
});

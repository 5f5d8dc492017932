// server/stores/revocations.ts: the revocation list's contract, run against both implementations: in memory, and on a
// real redis-server (server/stores/revocations-redis.ts).
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { RedisServer } from "#harness/redis-server.ts";
import type { Stores } from "#server/stores/create-stores.ts";
import { testStores } from "#tests/support/stores.ts";
import { until } from "#tests/support/waiting.ts";

let server: RedisServer;
before(async () => {
  server = await RedisServer.start();
});
after(() => server.stop());

for (const backend of ["memory", "redis"] as const) {
  describe(`${backend} revocations`, () => {
    let stores: Stores;
    before(async () => {
      const url = backend === "redis" ? server.url : undefined;
      stores = testStores(url, { sessionMaxMs: 400, keyPrefix: `revocations-${randomUUID()}:` });
      await stores.ready();
    });
    after(() => stores.close());

    it("refuse a revoked id, and nothing else", async () => {
      const sid = randomUUID();
      assert.equal(stores.revocations.has(sid), false);
      await stores.revocations.revoke(sid);
      assert.equal(stores.revocations.has(sid), true);
      assert.equal(stores.revocations.has(randomUUID()), false);
      assert.equal(stores.revocations.has(undefined), false);
      assert.equal(stores.revocations.has(""), false);
    });

    it("forget a revoked id once no cookie could carry it (the session's maximum lifetime)", async () => {
      const sid = randomUUID();
      const start = Date.now();
      await stores.revocations.revoke(sid);
      await until(() => !stores.revocations.has(sid), 3_000, "the revocation to expire");
      assert.ok(Date.now() - start >= 350, "kept for the lifetime");
    });
  });
}

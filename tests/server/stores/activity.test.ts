// Each person's recent security events, run against both stores: in memory, and on a real redis-server.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { RedisServer } from "#harness/redis-server.ts";
import { ACTIVITY_PER_PERSON } from "#server/stores/activity.ts";
import type { Stores } from "#server/stores/create-stores.ts";
import { testStores } from "#tests/support/stores.ts";
import { until } from "#tests/support/waiting.ts";

let server: RedisServer;
before(async () => {
  server = await RedisServer.start();
});
after(() => server.stop());

for (const backend of ["memory", "redis"] as const) {
  describe(`${backend} security activity`, () => {
    let stores: Stores;
    before(async () => {
      const url = backend === "redis" ? server.url : undefined;
      stores = testStores(url, { activityMs: 600, keyPrefix: `activity-${randomUUID()}:` });
      await stores.ready();
    });
    after(() => stores.close());

    it(`keeps a person's last ${ACTIVITY_PER_PERSON} security events, newest first, each for the retention`, async () => {
      const person = `client/acme/${randomUUID()}`;
      const other = `client/acme/${randomUUID()}`;
      const now = Date.now();
      for (let index = 0; index < ACTIVITY_PER_PERSON + 3; index += 1)
        await stores.activity.record(person, { event: `e${index}`, at: now + index, device: "d", address: "a" });
      await stores.activity.record(other, { event: "theirs", at: now, device: "d", address: "a" });
      const { events, complete } = await stores.activity.recent(person);
      assert.equal(complete, true);
      assert.equal(events.length, ACTIVITY_PER_PERSON);
      assert.equal(events[0]?.event, `e${ACTIVITY_PER_PERSON + 2}`);
      assert.ok(!events.some(({ event }) => event === "theirs"));
      await until(async () => (await stores.activity.recent(person)).events.length === 0, 3_000, "events to expire");
    });

    it("keeps the digest of the session an event is about, and reads an event kept without one", async () => {
      const person = `client/acme/${randomUUID()}`;
      const at = Date.now();
      await stores.activity.record(person, { event: "mfa.passed", at, device: "d", address: "a" });
      await stores.activity.record(person, { event: "mfa.passed", at, device: "d", address: "a", session: "digest" });
      assert.deepEqual((await stores.activity.recent(person)).events, [
        { event: "mfa.passed", at, device: "d", address: "a", session: "digest" },
        { event: "mfa.passed", at, device: "d", address: "a" },
      ]);
    });

    it("keeps an event that may name anyone only for a person with events already", async () => {
      const known = `client/acme/${randomUUID()}`;
      const stranger = `client/acme/${randomUUID()}`;
      await stores.activity.record(known, { event: "mfa.passed", at: Date.now(), device: "d", address: "a" });
      await stores.activity.record(known, { event: "sign-in.failed", at: Date.now(), device: "d", address: "a" }, true);
      await stores.activity.record(
        stranger,
        { event: "sign-in.failed", at: Date.now(), device: "d", address: "a" },
        true,
      );
      assert.deepEqual(
        (await stores.activity.recent(known)).events.map(({ event }) => event),
        ["sign-in.failed", "mfa.passed"],
      );
      assert.deepEqual((await stores.activity.recent(stranger)).events, []);
    });
  });
}

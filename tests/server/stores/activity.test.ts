// Each person's recent security events, run against both stores: in memory, and on a real redis-server.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { RedisServer } from "#harness/redis-server.ts";
import type { Stores } from "#server/stores/create-stores.ts";
import { ACTIVITY_PER_PERSON } from "#server/stores/memory-bounds.ts";
import { testStores } from "#tests/support/stores.ts";
import { scaled, until } from "#tests/support/waiting.ts";

let server: RedisServer;
describe("server/stores/activity", () => {
  before(async () => {
    server = await RedisServer.start();
  });
  after(() => server.stop());

  for (const backend of ["memory", "redis"] as const) {
    describe(`${backend} security activity`, () => {
      let stores: Stores;
      before(async () => {
        const url = backend === "redis" ? server.url : undefined;
        // The retention is short for the test that waits it out, and stretched with the suite's factor for those that
        // read events back after a hundred writes.
        stores = testStores(url, { activityMs: scaled(600), keyPrefix: `activity-${randomUUID()}:` });
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
        await stores.activity.record(person, { event: "mfa.passed", at, device: "Firefox on macOS", address: "a" });
        await stores.activity.record(person, {
          event: "mfa.passed",
          at,
          device: "Firefox on macOS",
          address: "a",
          session: "digest",
        });
        assert.deepEqual((await stores.activity.recent(person)).events, [
          { event: "mfa.passed", at, device: "Firefox on macOS", address: "a", session: "digest" },
          { event: "mfa.passed", at, device: "Firefox on macOS", address: "a" },
        ]);
      });

      it("keeps an event that may name anyone only for a person with events already", async () => {
        const known = `client/acme/${randomUUID()}`;
        const stranger = `client/acme/${randomUUID()}`;
        // A millisecond apart: events of the same time are in no set order.
        const at = Date.now();
        const deactivated = { event: "sign-in.deactivated", at: at + 1, device: "d", address: "a" };
        await stores.activity.record(known, { event: "mfa.passed", at, device: "d", address: "a" });
        await stores.activity.record(known, deactivated, true);
        await stores.activity.record(stranger, deactivated, true);
        assert.deepEqual(
          (await stores.activity.recent(known)).events.map(({ event }) => event),
          ["sign-in.deactivated", "mfa.passed"],
        );
        assert.deepEqual((await stores.activity.recent(stranger)).events, []);
      });

      it("never lets failures push an event out: a flood of them is one count beside the events", async () => {
        const person = `client/acme/${randomUUID()}`;
        const now = Date.now();
        const events = ["mfa.passed", "password.changed", "password.reset", "session-ended.by-person"];
        for (const [index, event] of events.entries())
          await stores.activity.record(person, { event, at: now + index, device: "Firefox on macOS", address: "a" });
        for (let attempt = 0; attempt < 5 * ACTIVITY_PER_PERSON; attempt += 1) {
          const address = `203.0.113.${attempt % 3}`;
          const failure = { kind: "sign-in.failed", at: now + 10 + attempt, device: "d", address, source: address };
          await stores.activity.failed(person, failure, true);
        }
        const recent = await stores.activity.recent(person);
        assert.deepEqual(
          recent.events.map(({ event }) => event),
          [...events].reverse(),
        );
        assert.equal(recent.failures.since(0)[0]?.count, 5 * ACTIVITY_PER_PERSON);
      });
    });
  }
});

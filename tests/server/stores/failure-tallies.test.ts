// Each person's failed attempts, counted and never listed one by one, run against both stores through the activity:
// in memory, and on a real redis-server.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { RedisServer } from "#harness/redis-server.ts";
import type { Stores } from "#server/stores/create-stores.ts";
import { ADDRESSES_COUNTED, type Failure } from "#server/stores/failure-tallies.ts";
import { testStores } from "#tests/support/stores.ts";

let server: RedisServer;
before(async () => {
  server = await RedisServer.start();
});
after(() => server.stop());

const HOUR = 3_600_000;
const RETENTION = 24 * HOUR;
const person = () => `client/acme/${randomUUID()}`;

for (const backend of ["memory", "redis"] as const) {
  describe(`${backend} failure tallies`, () => {
    let stores: Stores;
    let time = Date.UTC(2026, 10, 24, 10, 0);
    before(async () => {
      const url = backend === "redis" ? server.url : undefined;
      const prefix = `failures-${randomUUID()}:`;
      stores = testStores(url, { activityMs: RETENTION, keyPrefix: prefix, now: () => time });
      await stores.ready();
    });
    after(() => stores.close());

    const failure = (kind: string, address: string, at = time, device = "Firefox on Windows"): Failure => ({
      kind,
      at,
      device,
      address,
      source: address,
    });
    const signIn = (who: string, at = time) =>
      stores.activity.signedIn(who, { event: "mfa.passed", at, device: "Chrome on Windows", address: "192.0.2.1" });
    const list = async (who: string) => (await stores.activity.recent(who)).failures;

    it("counts each kind's failures with their distinct addresses, the first, the latest and its device", async () => {
      const who = person();
      await signIn(who, time - HOUR);
      for (let attempt = 0; attempt < 25; attempt += 1)
        await stores.activity.failed(
          who,
          failure("sign-in.failed", `203.0.113.${(attempt % 3) + 1}`, time + attempt),
          true,
        );
      await stores.activity.failed(who, failure("mfa.code-wrong", "198.51.100.7", time + 30, "Safari on iOS"), false);
      const { periods, sincePrevious, complete } = await list(who);
      assert.equal(complete, true);
      const signInFailures = {
        kind: "sign-in.failed",
        count: 25,
        addresses: 3,
        moreAddresses: false,
        first: time,
        last: time + 24,
        device: "Firefox on Windows",
        address: "203.0.113.1",
      };
      const wrongCodes = {
        kind: "mfa.code-wrong",
        count: 1,
        addresses: 1,
        moreAddresses: false,
        first: time + 30,
        last: time + 30,
        device: "Safari on iOS",
        address: "198.51.100.7",
      };
      assert.deepEqual(periods, [{ since: 0, tallies: [wrongCodes, signInFailures] }], "the newest first");
      assert.deepEqual(sincePrevious, [wrongCodes, signInFailures]);
      const { events } = await stores.activity.recent(who);
      assert.deepEqual(
        events.map(({ event }) => event),
        ["mfa.passed"],
        "no failure is listed",
      );
    });

    it(`counts at most ${ADDRESSES_COUNTED} addresses, then says there were more`, async () => {
      const who = person();
      await signIn(who);
      for (let index = 0; index < ADDRESSES_COUNTED + 10; index += 1)
        await stores.activity.failed(who, failure("sign-in.failed", `2001:db8:${index.toString(16)}::/64`), true);
      const [tally] = (await list(who)).sincePrevious;
      assert.equal(tally?.count, ADDRESSES_COUNTED + 10);
      assert.equal(tally?.addresses, ADDRESSES_COUNTED);
      assert.equal(tally?.moreAddresses, true);
    });

    it("counts a failure that may name anyone only for a person with activity already", async () => {
      const stranger = person();
      await stores.activity.failed(stranger, failure("sign-in.failed", "203.0.113.1"), true);
      assert.deepEqual((await list(stranger)).periods, []);
      const known = person();
      await stores.activity.record(known, { event: "sign-out", at: time, device: "Firefox", address: "192.0.2.1" });
      await stores.activity.failed(known, failure("sign-in.failed", "203.0.113.1"), true);
      assert.equal((await list(known)).sincePrevious[0]?.count, 1);
    });

    it("keeps the failures since the sign-in before the latest one, in the period each fell in", async () => {
      const who = person();
      await signIn(who, time);
      await stores.activity.failed(who, failure("sign-in.failed", "203.0.113.1", time + 1), true);
      await signIn(who, time + 10); // S1: the failure above is now before it
      await stores.activity.failed(who, failure("sign-in.failed", "203.0.113.2", time + 11), true);
      await stores.activity.failed(who, failure("sign-in.failed", "203.0.113.1", time + 12), true);
      await signIn(who, time + 20); // S2: what came before S1 is forgotten
      await stores.activity.failed(who, failure("sign-in.failed", "203.0.113.1", time + 21), true);
      const { periods, sincePrevious } = await list(who);
      assert.deepEqual(
        periods.map(({ since, tallies }) => [since, tallies.map(({ count }) => count)]),
        [
          [time + 20, [1]],
          [time + 10, [2]],
        ],
      );
      assert.equal(sincePrevious[0]?.count, 3, "since S1");
      assert.equal(sincePrevious[0]?.addresses, 2, "an address of both periods counted once");
      assert.equal(sincePrevious[0]?.first, time + 11);
      assert.equal(sincePrevious[0]?.last, time + 21);
    });

    it("places a failure that arrives late in the period its time falls in", async () => {
      const who = person();
      await signIn(who, time);
      await stores.activity.failed(who, failure("password.test-failed", "203.0.113.1", time + 5), false);
      await signIn(who, time + 10);
      await stores.activity.failed(who, failure("password.test-failed", "203.0.113.1", time + 6), false);
      const { periods } = await list(who);
      assert.deepEqual(
        periods.map(({ since, tallies }) => [since, tallies.map(({ count }) => count)]),
        [[0, [2]]],
        "both in the period before the latest sign-in",
      );
    });

    it("leaves out a tally whose latest failure is older than the retention", async () => {
      const who = person();
      await signIn(who);
      await stores.activity.failed(who, failure("mfa.code-wrong", "203.0.113.1"), false);
      const start = time;
      time += RETENTION - 1;
      try {
        assert.equal((await list(who)).sincePrevious.length, 1);
        time += 1;
        assert.deepEqual(await list(who), { periods: [], sincePrevious: [], complete: true });
      } finally {
        time = start;
      }
    });
  });
}

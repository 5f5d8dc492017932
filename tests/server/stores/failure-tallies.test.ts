// Each person's failed attempts, counted and never listed one by one, run against both stores through the activity:
// in memory, and on a real redis-server.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { RedisServer } from "#harness/redis-server.ts";
import type { Stores } from "#server/stores/create-stores.ts";
import { ADDRESSES_COUNTED, type Failure, PERIODS_KEPT } from "#server/stores/failure-tallies.ts";
import { testStores } from "#tests/support/stores.ts";

let server: RedisServer;
describe("server/stores/failure-tallies", () => {
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
        const { periods, since, complete } = await list(who);
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
        assert.deepEqual(since(time - HOUR), [wrongCodes, signInFailures], "since the sign-in");
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
        const [tally] = (await list(who)).since(time);
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
        assert.equal((await list(known)).since(0)[0]?.count, 1);
      });

      it("tells the failures since any kept sign-in, whatever sign-ins came after it, in the period each fell in", async () => {
        const who = person();
        await signIn(who, time);
        await stores.activity.failed(who, failure("sign-in.failed", "203.0.113.1", time + 1), true);
        await signIn(who, time + 10); // S1
        await stores.activity.failed(who, failure("sign-in.failed", "203.0.113.2", time + 11), true);
        await stores.activity.failed(who, failure("sign-in.failed", "203.0.113.1", time + 12), true);
        await signIn(who, time + 20); // S2
        await stores.activity.failed(who, failure("sign-in.failed", "203.0.113.1", time + 21), true);
        await signIn(who, time + 30); // S3, with no failure since
        const { periods, since } = await list(who);
        assert.deepEqual(
          periods.map(({ since: start, tallies }) => [
            start,
            tallies.map(({ count, addresses }) => [count, addresses]),
          ]),
          [
            [time + 20, [[1, 1]]],
            [time + 10, [[2, 2]]],
            [0, [[1, 1]]],
          ],
          "a period per sign-in (the first opened by its failure), each with its own count and addresses",
        );
        const told = (at: number) =>
          since(at).map(({ count, addresses, first, last }) => ({ count, addresses, first, last }));
        assert.deepEqual(told(time), [{ count: 4, addresses: 2, first: time + 1, last: time + 21 }], "since the first");
        assert.deepEqual(told(time + 10), [{ count: 3, addresses: 2, first: time + 11, last: time + 21 }], "since S1");
        assert.deepEqual(told(time + 20), [{ count: 1, addresses: 1, first: time + 21, last: time + 21 }], "since S2");
        assert.deepEqual(told(time + 30), [], "none since S3");
      });

      it(`keeps the newest ${PERIODS_KEPT} periods, one per sign-in: a sign-in past them forgets the oldest`, async () => {
        const who = person();
        await signIn(who, time);
        await stores.activity.failed(who, failure("mfa.code-wrong", "203.0.113.1", time + 1), false);
        for (let index = 1; index < PERIODS_KEPT; index += 1) await signIn(who, time + 10 * index);
        await stores.activity.failed(
          who,
          failure("mfa.code-wrong", "203.0.113.2", time + 10 * PERIODS_KEPT - 1),
          false,
        );
        const kept = await list(who);
        assert.equal(kept.since(time)[0]?.count, 2, "the first sign-in's period is still kept");
        assert.equal(kept.since(time)[0]?.addresses, 2);
        await signIn(who, time + 10 * PERIODS_KEPT);
        const after = await list(who);
        assert.deepEqual(
          after.periods.map(({ since: start }) => start),
          [time + 10 * (PERIODS_KEPT - 1)],
          "the first sign-in's period is forgotten",
        );
        assert.equal(after.since(time)[0]?.count, 1);
        assert.equal(after.since(time)[0]?.addresses, 1, "and its address with it");
      });

      it("a period opened by a failure began at its first failure: counted since a sign-in before it", async () => {
        const who = person();
        await signIn(who, time); // nothing kept: the person has no failure yet
        await stores.activity.failed(who, failure("password.test-failed", "203.0.113.1", time + 5), false);
        assert.equal((await list(who)).since(time)[0]?.count, 1);
        assert.deepEqual((await list(who)).since(time + 6), [], "nor since a later one");
        await signIn(who, time + 10);
        assert.equal((await list(who)).since(time)[0]?.count, 1, "still since that sign-in");
        assert.deepEqual((await list(who)).since(time + 10), []);
      });

      it(`counts at most ${ADDRESSES_COUNTED} addresses a kind over the periods, the stalest making room for a newer`, async () => {
        const who = person();
        await signIn(who, time);
        const address = (index: number) => `2001:db8:${index.toString(16)}::/64`;
        for (let index = 0; index < ADDRESSES_COUNTED; index += 1)
          await stores.activity.failed(who, failure("sign-in.failed", address(index), time + 1), true);
        await signIn(who, time + 10);
        await stores.activity.failed(who, failure("sign-in.failed", address(0), time + 11), true);
        await stores.activity.failed(who, failure("sign-in.failed", address(ADDRESSES_COUNTED), time + 12), true);
        const { since } = await list(who);
        const addresses = (at: number) => since(at).map(({ addresses, moreAddresses }) => [addresses, moreAddresses]);
        assert.deepEqual(addresses(time + 10), [[2, false]], "since the newer sign-in, exact");
        assert.deepEqual(addresses(time), [[ADDRESSES_COUNTED, true]], "since the first, 50+");
        assert.deepEqual(
          (await list(who)).periods.map(({ tallies }) =>
            tallies.map(({ addresses, moreAddresses }) => [addresses, moreAddresses]),
          ),
          [[[2, false]], [[ADDRESSES_COUNTED - 1, true]]],
          "the older period lent its stalest address: at least 49",
        );
        await stores.activity.failed(who, failure("sign-in.failed", address(ADDRESSES_COUNTED + 1), time + 2), true);
        assert.deepEqual(
          (await list(who)).since(time + 10).map(({ addresses, moreAddresses }) => [addresses, moreAddresses]),
          [[2, false]],
          "an address past the bound in an older period takes no newer one's place",
        );
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
          assert.equal((await list(who)).since(0).length, 1);
          time += 1;
          const { periods, since, complete } = await list(who);
          assert.deepEqual({ periods, since: since(0), complete }, { periods: [], since: [], complete: true });
        } finally {
          time = start;
        }
      });
    });
  }
});

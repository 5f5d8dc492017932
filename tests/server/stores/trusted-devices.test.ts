// The browsers that skip the code, per person, run against both stores: in memory, and on a real redis-server.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { RedisServer } from "#harness/redis-server.ts";
import type { Stores } from "#server/stores/create-stores.ts";
import { deviceDigest, TRUST_MS } from "#server/stores/trusted-devices.ts";
import { testStores } from "#tests/support/stores.ts";

let server: RedisServer;
describe("server/stores/trusted-devices", () => {
  before(async () => {
    server = await RedisServer.start();
  });
  after(() => server.stop());

  const seen = { device: "Chrome on Windows", address: "203.0.113.9" };

  for (const backend of ["memory", "redis"] as const) {
    describe(`${backend} trusted browsers`, () => {
      let stores: Stores;
      before(async () => {
        const url = backend === "redis" ? server.url : undefined;
        stores = testStores(url, { keyPrefix: `devices-${randomUUID()}:` });
        await stores.ready();
      });
      after(() => stores.close());

      it("trusts a browser once its code passed, keeps when it was first trusted, and lists it by a digest only", async () => {
        const person = `client/acme/${randomUUID()}`;
        const now = Date.now();
        assert.equal(await stores.devices.trusts(person, "device-one-xxxxxxxxxx"), false, "not before a passed code");
        await stores.devices.trust(person, "device-one-xxxxxxxxxx", seen, now - 1000);
        await stores.devices.trust(person, "device-one-xxxxxxxxxx", { ...seen, address: "198.51.100.7" }, now);
        assert.equal(await stores.devices.trusts(person, "device-one-xxxxxxxxxx"), true);
        const { devices } = await stores.devices.list(person);
        assert.deepEqual(devices, [
          { id: deviceDigest("device-one-xxxxxxxxxx"), first: now - 1000, last: now, ...seen, address: "198.51.100.7" },
        ]);
        assert.ok(!JSON.stringify(devices).includes("device-one"), "the device id itself is never kept");
      });

      it("forgets one browser, or all, and only the person's own: another company's alice keeps hers", async () => {
        const acme = `client/acme/alice-${randomUUID()}`;
        const globex = `client/globex/alice-${randomUUID()}`;
        const now = Date.now();
        await stores.devices.trust(acme, "acme-browser-a-xxxxxxx", seen, now);
        await stores.devices.trust(acme, "acme-browser-b-xxxxxxx", seen, now + 1);
        await stores.devices.trust(globex, "globex-browser-xxxxxxx", seen, now);
        await stores.devices.forget(acme, { id: deviceDigest("acme-browser-a-xxxxxxx") });
        assert.equal(await stores.devices.trusts(acme, "acme-browser-a-xxxxxxx"), false);
        assert.equal(await stores.devices.trusts(acme, "acme-browser-b-xxxxxxx"), true);
        await stores.devices.forget(acme, { id: deviceDigest("globex-browser-xxxxxxx") });
        await stores.devices.forget(acme, "all");
        assert.deepEqual((await stores.devices.list(acme)).devices, []);
        assert.equal(await stores.devices.trusts(globex, "globex-browser-xxxxxxx"), true, "the other alice's stays");
      });
    });
  }

  describe("the trust of a browser", () => {
    it("lasts 30 days after its last passed code, and a new passed code starts them again", async () => {
      let now = Date.UTC(2026, 10, 1);
      const stores = testStores(undefined, { now: () => now });
      const person = "vendor//vera";
      await stores.devices.trust(person, "vera-browser-xxxxxxxxx", seen, now);
      now += TRUST_MS - 60_000;
      assert.equal(await stores.devices.trusts(person, "vera-browser-xxxxxxxxx"), true, "a minute before 30 days");
      await stores.devices.trust(person, "vera-browser-xxxxxxxxx", seen, now);
      now += TRUST_MS - 60_000;
      assert.equal(await stores.devices.trusts(person, "vera-browser-xxxxxxxxx"), true, "refreshed by the code");
      now += 120_000;
      assert.equal(await stores.devices.trusts(person, "vera-browser-xxxxxxxxx"), false, "past 30 days: a code again");
      assert.equal(TRUST_MS, 30 * 24 * 3600_000);
      await stores.close();
    });
  });
});

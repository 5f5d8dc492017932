// The permissions behind the gates (requirements 4.7, docs/requirements.md): fetched when MFA passes, cached in the session, fetched
// again when stale, never twice for one page; a gated page says "Checking User Permissions..." with 503 when they
// cannot be had (a page without a gate does not wait for them: tests/server/loaders/section.test.ts).
// SECURITY.md item 11: permission gates decided on the server.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { type FakeUpstream, forwardTo, happyUpstream, startFakeUpstream } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, fakeUpstreamCode, signIn } from "#harness/sign-in.ts";
import { forGates, PERMISSIONS_TTL_MS } from "#server/account/permissions.ts";
import { CHECKING_RETRY_SECONDS, CHECKS } from "#server/loaders/section.tsx";
import { BY_ITSELF } from "#server/session/plugin.ts";
import { BOUND_MS, TIMEOUT_MS, timed } from "#tests/support/failing-upstream.ts";
import { logCapture } from "#tests/support/log-capture.ts";
import { permissionsWith } from "#tests/support/permissions.ts";
import { type RunningPortal, sandboxPost, startPortalInProcess } from "#tests/support/portal.ts";
import { portalOnFake } from "#tests/support/portal-on-fake.ts";
import { concrete } from "#tests/support/route-paths.ts";
import { scaled } from "#tests/support/waiting.ts";
import { gatedServices, gates } from "#web/gates.ts";
import { routes } from "#web/routes/table.ts";
import type { UserInfo } from "#web/site.ts";

/** A client with no permission at all: every gate but "hidden when clientServices has 1894" fails. */
const nothing = permissionsWith({ viewOnly: true });

let clock = Date.now();
let portal: RunningPortal;
let upstream: FakeUpstream;
const fetches = () => upstream.watched["user-info"].received;
const setGary = (permissions: Record<string, unknown>) =>
  sandboxPost(portal.sandboxUrl, "/sandbox/users/client/GLOBEX/gary/permissions", permissions, "PUT");

describe("server/account/permissions", () => {
  before(async () => {
    upstream = await startFakeUpstream();
    portal = await startPortalInProcess({
      listen: false,
      now: () => clock,
      env: { UPSTREAM_URL: upstream.url, UPSTREAM_TIMEOUT_MS: String(scaled(800)) },
    });
    upstream.answer = forwardTo(portal.sandboxUrl);
  });
  after(async () => {
    await portal.close();
    await upstream.close();
  });

  describe("the permissions of a signed-in user", () => {
    it("are fetched once when MFA passes, then every page is answered from the session", async () => {
      const before = fetches();
      const gary = await signIn(portal.app, accounts.gary, portal.code);
      assert.equal(fetches(), before + 1, "fetched when MFA passed");
      for (const path of ["/client/home", "/client/vip/dashboard", "/client/invoices/status", "/client/nowhere"]) {
        await gary.get(path);
      }
      assert.equal(fetches(), before + 1, "no page fetched them again");
    });

    it("are fetched again, once, when older than 5 minutes, so a change upstream takes effect", async () => {
      await setGary({ vipTier: "1" });
      const gary = await signIn(portal.app, accounts.gary, portal.code);
      await setGary({ vipTier: "0" });
      assert.equal((await gary.get("/client/vip/dashboard")).status, 200, "still the cached permissions");
      clock += PERMISSIONS_TTL_MS;
      const before = fetches();
      assert.equal((await gary.get("/client/vip/dashboard")).status, 403, "the change took effect");
      assert.equal((await gary.get("/client/vip/profile")).status, 403);
      assert.equal(fetches(), before + 1, "one fetch for the stale cache, none after");
      await setGary({ vipTier: "1" });
    });
  });

  describe("the permissions the session keeps", () => {
    it("keep a truthy-or-falsy tier of any type (requirements 3.3) as what the gates read of it", () => {
      const base = permissionsWith({});
      const kept = forGates({ ...base, paymentTier: { plan: "gold", limits: ["x".repeat(500)] }, spotTier: [] });
      assert.equal(kept.paymentTier, true);
      assert.equal(kept.spotTier, true);
      const scalars = forGates({ ...base, paymentTier: 0, spotTier: "Y" });
      assert.deepEqual([scalars.paymentTier, scalars.spotTier], [0, "Y"]);
    });

    it("give every gate the same answer as the upstream's full set, and stay small whatever the upstream sends", () => {
      // The codes the gates may read (web/gates.ts: a gate can name no other), so a gate added with a new code is
      // exercised too.
      const gateCodes = [...gatedServices.clientServices, ...gatedServices.beneServices];
      const code = fc.oneof(fc.constantFrom(...gateCodes), fc.stringMatching(/^\d{1,6}$/));
      const tier = fc.oneof(
        fc.boolean(),
        fc.integer(),
        fc.string(),
        fc.stringMatching(/^-?\d{0,20}$/),
        fc.constant(null),
      );
      const numeric = fc.oneof(fc.string(), fc.stringMatching(/^ ?-?\d{0,30}(\.\d{0,3})? ?$/));
      const info = fc.record({
        loaded: fc.constant(true),
        viewOnly: fc.boolean(),
        isAdmin: fc.boolean(),
        clientServices: fc.array(code, { maxLength: 40 }),
        beneServices: fc.array(code, { maxLength: 20 }),
        paymentTier: tier,
        spotTier: tier,
        vipTier: numeric,
        userTier: numeric,
      }) satisfies fc.Arbitrary<UserInfo>;
      fc.assert(
        fc.property(info, (full) => {
          const kept = forGates(full);
          for (const [name, gate] of Object.entries(gates)) assert.equal(gate(kept), gate(full), name);
          assert.ok(JSON.stringify(kept).length <= 400, "the kept set is small whatever the upstream sends");
        }),
        { numRuns: 2000 },
      );
    });
  });

  describe("an empty permissions answer", () => {
    it("holds no permissions: the page says it is still checking, and asks again", async () => {
      const fake = await portalOnFake();
      try {
        const client = await signIn(fake.app, accounts.alice, fake.code);
        const happy = fake.upstream.answer;
        fake.upstream.answer = (call, response) =>
          /\/user-info$/.test(call.path) ? void response.writeHead(200).end() : happy(call, response);
        const fresh = await signIn(fake.app, accounts.alice, fake.code);
        assert.equal((await fresh.get("/client/vip/dashboard")).status, 503, "Checking User Permissions...");
        assert.equal((await client.get("/client/vip/dashboard")).status, 200, "a session that has them keeps them");
      } finally {
        await fake.close();
      }
    });
  });

  describe("when the permissions cannot be had", () => {
    for (const [name, fault] of [
      ["the upstream answers 500", { kind: "status", status: 500 }],
      ["the upstream never answers", { kind: "hang" }],
    ] as const) {
      it(`a section page answers 503 "Checking User Permissions..." and asks again, when ${name}`, async () => {
        const gary = await signIn(portal.app, accounts.gary, portal.code);
        clock += PERMISSIONS_TTL_MS;
        upstream.faults["user-info"] = fault;
        const before = fetches();
        const waiting = await gary.get("/client/vip/dashboard");
        delete upstream.faults["user-info"];
        assert.equal(waiting.status, 503);
        // Asked again by the browser itself, marked so that its load does not restart the idle time.
        const again = `/client/vip/dashboard?${CHECKS}=1&${BY_ITSELF}`;
        assert.equal(waiting.headers.refresh, `${CHECKING_RETRY_SECONDS}; url=${again}`);
        assert.ok(waiting.text.includes("Checking User Permissions..."));
        assert.ok(!waiting.text.includes("VIP Dashboard"), "nothing of the page before its gate is decided");
        assert.ok(!waiting.text.includes('class="section-nav"'), "no navigation before the permissions are known");
        assert.equal(fetches(), before + 1, "one fetch for the page");

        const refreshed = await gary.get(again);
        assert.equal(refreshed.status, 200, "the refresh shows the page once they can be had");
        assert.ok(refreshed.text.includes("VIP Dashboard"));
      });
    }

    it("a 401 on the fetch ends the session: / then shows 'Your session has expired. Please Login again'", async () => {
      const gary = await signIn(portal.app, accounts.gary, portal.code);
      await sandboxPost(portal.sandboxUrl, "/sandbox/tokens/revoke", { site: "client", username: "gary" });
      clock += PERMISSIONS_TTL_MS;
      const answer = await gary.get("/client/vip/dashboard");
      assert.deepEqual([answer.status, answer.headers.location], [302, "/"]);
      assert.ok((await gary.get("/")).text.includes("Your session has expired. Please Login again"));
    });
  });

  describe("permission gates (item 11)", () => {
    it("11. gates: a gated page requested without the permission is 403 from the server, with no upstream call but the visit record", async () => {
      const fake = await portalOnFake(happyUpstream({ permissions: nothing }));
      try {
        const visitor = await signIn(fake.app, accounts.alice, fake.code);
        fake.upstream.calls.length = 0;
        const gated = routes.filter(
          (entry) => entry.section === "client" && (entry.gate || entry.screen === "forbidden"),
        );
        assert.ok(gated.length > 20, "the table has gated client pages");
        for (const entry of gated) {
          const passes = entry.screen !== "forbidden" && entry.gate !== undefined && gates[entry.gate](nothing);
          const page = await visitor.get(concrete(entry.path));
          assert.equal(page.status, passes ? 200 : 403, `${entry.path} (${entry.gate ?? entry.screen})`);
        }
        for (const path of ["/vendor/home", "/vendor/invoice/entry"])
          assert.equal((await visitor.get(path)).status, 403, `${path}: another audience's section`);
        await new Promise((resolve) => setTimeout(resolve, 100));
        const kinds = new Set(fake.upstream.calls.map((call) => `${call.method} ${call.path}`));
        assert.deepEqual(
          [...kinds],
          ["POST /web/track"],
          "no permissions fetch, no other call: only requirements 4.8's records",
        );
      } finally {
        await fake.close();
      }
    });

    it("11. gates: an API call for another audience is 403 from the server with no upstream call", async () => {
      const fake = await portalOnFake(happyUpstream());
      try {
        const visitor = await signIn(fake.app, accounts.alice, fake.code);
        fake.upstream.calls.length = 0;
        const copy = () => {
          const other = new PortalClient(fake.app);
          for (const [name, value] of visitor.cookies) other.cookies.set(name, value);
          return other;
        };
        assert.equal(
          (await copy().post("/api/web/vendor/password/test", { userId: "vera", password: "pw" })).status,
          403,
        );
        assert.equal(
          (await copy().post("/api/web/vendor/password/change", { password: "Strong-Password-2026!" })).status,
          403,
        );
        assert.deepEqual(fake.upstream.calls, []);
      } finally {
        await fake.close();
      }
    });

    it("11. gates: a change of permissions upstream takes effect within the refresh period", async () => {
      let clock = Date.now();
      const portal = await startPortalInProcess({ now: () => clock, listen: false });
      try {
        const admin = routes.find((entry) => entry.section === "client" && entry.gate === "isAdmin");
        assert.ok(admin);
        const visitor = await signIn(portal.app, accounts.alice, portal.code);
        assert.equal((await visitor.get(admin.path)).status, 200, "alice is an admin");
        const setAdmin = (isAdmin: boolean) =>
          sandboxPost(portal.sandboxUrl, "/sandbox/users/client/ACME/alice/permissions", { isAdmin }, "PUT");
        await setAdmin(false);
        clock += PERMISSIONS_TTL_MS + 1_000;
        assert.equal((await visitor.get(admin.path)).status, 403, "revoked: refused once the period has passed");
        await setAdmin(true);
        clock += PERMISSIONS_TTL_MS + 1_000;
        assert.equal((await visitor.get(admin.path)).status, 200, "granted: open once the period has passed");
      } finally {
        await portal.close();
      }
    });
  });

  describe("permissions from a hung upstream", () => {
    it("14. faults: a page needing fresh permissions from a hung upstream shows the checking page in bounded time", async () => {
      let clock = Date.now();
      const slow = await portalOnFake(happyUpstream(), {
        env: { UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS) },
        now: () => clock,
      });
      try {
        const visitor = await signIn(slow.app, accounts.alice, slow.code);
        slow.upstream.answer = () => {}; // hung until its connection is dropped
        clock += 10 * 60_000;
        const page = await timed(() => visitor.get("/client/vip/dashboard"));
        assert.ok(page.elapsed < BOUND_MS, `answered in ${page.elapsed.toFixed(0)} ms`);
        assert.equal(page.answer.status, 503);
        assert.match(page.answer.text, /Checking User Permissions/);
      } finally {
        slow.upstream.dropConnections();
        await slow.close();
      }
    });
  });

  describe("permissions during an upstream outage", () => {
    it("an outage of the permissions call writes two log lines, not one per page view", async () => {
      const logs = logCapture("permissions-outage");
      const lines = () => logs.lines.map((line) => JSON.parse(line) as { level: number; msg: string; failed?: number });
      const failing = await startFakeUpstream(happyUpstream());
      const replica = await startPortalInProcess({
        upstreamUrl: failing.url,
        listen: false,
        logs: logs.stream,
      });
      try {
        failing.faults["user-info"] = { kind: "status", status: 500 };
        const alice = await signIn(replica.app, accounts.alice, fakeUpstreamCode);
        for (let view = 0; view < 5; view++) assert.equal((await alice.get("/client/vip/dashboard")).status, 503);
        delete failing.faults["user-info"];
        assert.equal((await alice.get("/client/vip/dashboard")).status, 200);
        assert.deepEqual(
          lines()
            .filter((line) => line.msg.startsWith("permissions "))
            .map((line) => [line.level, line.msg.split(":")[0], line.failed]),
          [
            [40, "permissions not usable", undefined],
            [30, "permissions usable again", 6],
          ],
          "the sign-in's fetch and five page views failed",
        );
      } finally {
        await replica.close();
        await failing.close();
      }
    });
  });
});

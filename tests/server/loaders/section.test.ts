// A signed-out visit to a section page is sent to sign in, carrying the page only when it is short enough to carry; a
// page without a gate shows without waiting for the permissions, and a gated page whose permissions cannot be read asks
// again a few times, then says so (docs/decisions.md).
import assert from "node:assert/strict";
import type { ServerResponse } from "node:http";
import { after, before, describe, it } from "node:test";
import { fullPermissions, happyUpstream, type RecordedCall, sendJson } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { CHECKING_RETRIES, CHECKING_RETRY_SECONDS, CHECKS } from "#server/loaders/section.tsx";
import { BY_ITSELF } from "#server/session/plugin.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";
import { portalOnFake } from "#tests/support/portal-on-fake.ts";
import { MAX_RETURN_LENGTH } from "#web/site.ts";
import { accessTexts } from "#web/texts/access.ts";
import { errorTexts } from "#web/texts/errors.ts";

let portal: RunningPortal;
describe("server/loaders/section", () => {
  before(async () => {
    portal = await startPortalInProcess({ listen: false });
  });
  after(() => portal.close());

  describe("the sign-in redirect of a signed-out section visit", () => {
    it("carries a path as long as the /session routes accept", async () => {
      const path = `/client/${"a".repeat(MAX_RETURN_LENGTH - "/client/".length)}`;
      const answer = await new PortalClient(portal.app).get(path);
      assert.equal(answer.status, 302);
      assert.equal(answer.headers.location, `/?return=${encodeURIComponent(path)}`);
    });

    it("drops a longer path: a 15,000-character address never comes back as a 15,000-character Location", async () => {
      for (const path of [`/client/${"a".repeat(MAX_RETURN_LENGTH)}`, `/vendor/${"b".repeat(15_000)}`]) {
        const answer = await new PortalClient(portal.app).get(path);
        assert.equal(answer.status, 302, `${path.length} characters`);
        assert.equal(answer.headers.location, "/", `${path.length} characters: the sign-in page, without the path`);
      }
    });
  });

  describe("after sign-in, the page first asked for", () => {
    it("a signed-out person who opens a section page is sent to sign in, and the sign-in page carries the page", async () => {
      const visitor = new PortalClient(portal.app);
      const answer = await visitor.get("/vendor/reports/invoices");
      assert.equal(answer.status, 302);
      assert.equal(answer.headers.location, "/?return=%2Fvendor%2Freports%2Finvoices");
      const login = await visitor.get(String(answer.headers.location));
      assert.ok(
        login.text.includes("/session/landing?return=%2Fvendor%2Freports%2Finvoices"),
        "the island lands there",
      );
      assert.ok(login.text.includes('"activeSite":"VENDOR"'), "on the vendor tab, the page's audience");
    });
  });

  describe("a section whose permissions cannot be read (review F4)", () => {
    /** An upstream with no permissions call of its own (requirements 7: its path is not shown), or one of another shape. */
    const without = (permissions: (response: ServerResponse) => void) => {
      const happy = happyUpstream();
      return (call: RecordedCall, response: ServerResponse) =>
        /\/user-info$/.test(call.path) ? permissions(response) : happy(call, response);
    };
    const foreign: Record<string, (response: ServerResponse) => void> = {
      "answered 404": (response) => sendJson(response, 404, { detail: "Not Found" }),
      "a numeric vipTier": (response) => sendJson(response, 200, { ...fullPermissions, vipTier: 1 }),
      "no spotTier": (response) => {
        const { spotTier: _left, ...rest } = fullPermissions;
        sendJson(response, 200, rest);
      },
    };

    for (const [what, permissions] of Object.entries(foreign)) {
      it(`F4: pages without a gate show at once when the permissions call is ${what}, with no call for them`, async () => {
        const fake = await portalOnFake(without(permissions));
        try {
          const alice = await signIn(fake.app, accounts.alice, fake.code);
          const before = fake.upstream.watched["user-info"].received;
          for (const path of [
            "/client/home",
            "/client/users/change-password",
            "/client/activity",
            "/client/docs/bank-holidays",
            "/client/nowhere",
          ]) {
            const page = await alice.get(path);
            assert.equal(page.status, path === "/client/nowhere" ? 404 : 200, `${what}: ${path}`);
            assert.equal(page.headers.refresh, undefined, `${what}: ${path} does not ask again`);
            assert.ok(!page.text.includes(accessTexts.checking), `${what}: ${path}`);
          }
          assert.equal(fake.upstream.watched["user-info"].received, before, "no page waited on the permissions");
        } finally {
          await fake.close();
        }
      });
    }

    it("F4: a gated page asks again a few times, then says the check failed, with a way to try again", async () => {
      const fake = await portalOnFake(without(foreign["answered 404"] as (response: ServerResponse) => void));
      try {
        const alice = await signIn(fake.app, accounts.alice, fake.code);
        const before = fake.upstream.watched["user-info"].received;
        let address = "/client/vip/dashboard?tab=2";
        for (let retry = 1; retry <= CHECKING_RETRIES; retry++) {
          const checking = await alice.get(address);
          assert.equal(checking.status, 503);
          assert.ok(checking.text.includes(accessTexts.checking));
          const next = `/client/vip/dashboard?tab=2&${CHECKS}=${retry}&${BY_ITSELF}`;
          assert.equal(checking.headers.refresh, `${CHECKING_RETRY_SECONDS}; url=${next}`);
          address = next;
        }
        const failed = await alice.get(address);
        assert.equal(failed.status, 503);
        assert.equal(failed.headers.refresh, undefined, "it stops asking");
        assert.ok(failed.text.includes(errorTexts.endpointNotFound), "requirements 8's message for the 404 answered");
        assert.ok(failed.text.includes(accessTexts.unchecked));
        assert.ok(!failed.text.includes(errorTexts.outage), "the upstream answered: no outage");
        assert.ok(failed.text.includes('href="/client/vip/dashboard?tab=2"'), "Try again, a person's own action");
        assert.ok(!failed.text.includes("VIP Dashboard"), "nothing of the gated page");
        assert.equal(fake.upstream.watched["user-info"].received, before + CHECKING_RETRIES + 1, "one call per load");
      } finally {
        await fake.close();
      }
    });

    const failures: [string, (response: ServerResponse) => void, string][] = [
      ["503 with a detail", (response) => sendJson(response, 503, { detail: "Back at noon." }), "Back at noon."],
      ["500", (response) => sendJson(response, 500, { detail: "stack" }), errorTexts.internalServerError],
      ["of another shape", foreign["no spotTier"] as (response: ServerResponse) => void, errorTexts.actionFailed],
    ];
    for (const [what, permissions, said] of failures) {
      it(`F4: says section 8's message when the permissions call answered ${what}, and that the service is not answering`, async () => {
        const fake = await portalOnFake(without(permissions));
        try {
          const alice = await signIn(fake.app, accounts.alice, fake.code);
          const failed = await alice.get(`/client/vip/dashboard?${CHECKS}=${CHECKING_RETRIES}`);
          assert.equal(failed.status, 503);
          assert.ok(failed.text.includes(`<h1>${said}</h1>`), failed.text);
          assert.ok(
            failed.text.includes(errorTexts.outage),
            "the service is not answering, and nothing typed was wrong",
          );
        } finally {
          await fake.close();
        }
      });
    }
  });
});

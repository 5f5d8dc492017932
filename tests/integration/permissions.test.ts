// The permissions behind the gates (SPEC.md 4.7, DESIGN.md): fetched when MFA passes, cached in the session, fetched
// again when stale, never twice for one page; "Checking User Permissions..." with 503 when they cannot be had.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { CHECKING_RETRY_SECONDS } from "#server/pages/section.tsx";
import { PERMISSIONS_TTL_MS } from "#server/permissions.ts";
import { type FaultyUpstream, startFaultyUpstream } from "#tests/support/faulty-upstream.ts";
import { type RunningPortal, sandboxPost, startPortal } from "#tests/support/portal.ts";
import { accounts, signIn } from "#tests/support/sign-in.ts";

let clock = Date.now();
let portal: RunningPortal;
let upstream: FaultyUpstream;
const fetches = () => upstream.calls["user-info"].received;
const setGary = (permissions: Record<string, unknown>) =>
  sandboxPost(portal.sandboxUrl, "/sandbox/users/client/GLOBEX/gary/permissions", permissions, "PUT");

before(async () => {
  upstream = await startFaultyUpstream();
  portal = await startPortal({
    listen: false,
    now: () => clock,
    env: { UPSTREAM_URL: upstream.url, UPSTREAM_TIMEOUT_MS: "800" },
  });
  upstream.target = portal.sandboxUrl;
});
after(async () => {
  await portal.close();
  await upstream.close();
});

describe("the permissions of a signed-in user", () => {
  it("are fetched once when MFA passes, then every page is answered from the session", async () => {
    const before = fetches();
    const gary = await signIn(portal, accounts.gary);
    assert.equal(fetches(), before + 1, "fetched when MFA passed");
    for (const path of ["/client/home", "/client/vip/dashboard", "/client/invoices/status", "/client/nowhere"]) {
      await gary.get(path);
    }
    assert.equal(fetches(), before + 1, "no page fetched them again");
  });

  it("are fetched again, once, when older than 5 minutes, so a change upstream takes effect", async () => {
    await setGary({ vipTier: "1" });
    const gary = await signIn(portal, accounts.gary);
    await setGary({ vipTier: "0" });
    assert.equal((await gary.get("/client/vip/dashboard")).statusCode, 200, "still the cached permissions");
    clock += PERMISSIONS_TTL_MS;
    const before = fetches();
    assert.equal((await gary.get("/client/vip/dashboard")).statusCode, 403, "the change took effect");
    assert.equal((await gary.get("/client/vip/profile")).statusCode, 403);
    assert.equal(fetches(), before + 1, "one fetch for the stale cache, none after");
    await setGary({ vipTier: "1" });
  });
});

describe("when the permissions cannot be had", () => {
  for (const [name, behaviour] of [
    ["the upstream answers 500", { kind: "status", status: 500 }],
    ["the upstream never answers", { kind: "hang" }],
  ] as const) {
    it(`a section page answers 503 "Checking User Permissions..." and asks again, when ${name}`, async () => {
      const gary = await signIn(portal, accounts.gary);
      clock += PERMISSIONS_TTL_MS;
      upstream.behaviours["user-info"] = behaviour;
      const before = fetches();
      const waiting = await gary.get("/client/vip/dashboard");
      upstream.behaviours["user-info"] = { kind: "forward" };
      assert.equal(waiting.statusCode, 503);
      assert.equal(waiting.headers.refresh, String(CHECKING_RETRY_SECONDS));
      assert.ok(waiting.body.includes("Checking User Permissions..."));
      assert.ok(!waiting.body.includes("VIP Dashboard"), "nothing of the page before its gate is decided");
      assert.ok(!waiting.body.includes('class="section-nav"'), "no navigation before the permissions are known");
      assert.equal(fetches(), before + 1, "one fetch for the page");

      const again = await gary.get("/client/vip/dashboard");
      assert.equal(again.statusCode, 200, "the refresh shows the page once they can be had");
      assert.ok(again.body.includes("VIP Dashboard"));
    });
  }

  it("a 401 on the fetch ends the session: / then shows 'Your session has expired. Please Login again'", async () => {
    const gary = await signIn(portal, accounts.gary);
    await sandboxPost(portal.sandboxUrl, "/sandbox/tokens/revoke", { site: "client", username: "gary" });
    clock += PERMISSIONS_TTL_MS;
    const answer = await gary.get("/client/home");
    assert.deepEqual([answer.statusCode, answer.headers.location], [302, "/"]);
    assert.ok((await gary.get("/")).body.includes("Your session has expired. Please Login again"));
  });
});

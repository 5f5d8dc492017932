// A signed-out visit to a section page is sent to sign in, carrying the page only when it is short enough to carry.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PortalClient } from "#harness/portal-client.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";
import { MAX_RETURN_LENGTH } from "#web/site.ts";

let portal: RunningPortal;
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
    assert.ok(login.text.includes("/session/landing?return=%2Fvendor%2Freports%2Finvoices"), "the island lands there");
    assert.ok(login.text.includes('"activeSite":"VENDOR"'), "on the vendor tab, the page's audience");
  });
});

// server/errors.ts: the portal's own refusal of a request is marked as such, so the browser shows section 8's words.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PortalClient } from "#harness/portal-client.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";
import { answerMessage } from "#web/api/answer.ts";

let portal: RunningPortal;
before(async () => {
  portal = await startPortalInProcess({ listen: false });
});
after(() => portal.close());

describe("the portal's own refusal of a request", () => {
  it("is marked invalid-request, so people read 'Action Failed'", async () => {
    const visitor = new PortalClient(portal.app);
    const empty = await visitor.post("/api/auth/client", { shortname: "ACME", username: "alice", password: "" });
    assert.equal(empty.status, 400);
    assert.equal(empty.json().code, "invalid-request");
    assert.equal(answerMessage(400, empty.json()), "Action Failed");
    // Injected: the client sends every body as JSON, and this one must not be.
    const broken = await portal.app.inject({
      method: "POST",
      url: "/api/auth/client",
      headers: { "content-type": "application/json", "x-portal-request": "1" },
      payload: "{not json",
    });
    assert.equal(broken.statusCode, 400);
    assert.equal(broken.json().code, "invalid-request", "a body that is not JSON too");
  });
});

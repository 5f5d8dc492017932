// What the server answers so the sign-in path can explain itself (docs/decisions.md, "the contract").
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, DEMO_PASSWORD, signIn } from "#harness/sign-in.ts";
import { type RunningPortal, sandboxPost, startPortalInProcess } from "#tests/support/portal.ts";
import { answerMessage } from "#web/api/answer.ts";

let portal: RunningPortal;
before(async () => {
  portal = await startPortalInProcess({ listen: false });
});
after(() => portal.close());

describe("the sign-in path's answers", () => {
  it("#3: the portal's own refusal of a request is marked invalid-request, so people read 'Action Failed'", async () => {
    const visitor = new PortalClient(portal.app);
    const empty = await visitor.post("/api/auth/client", { shortname: "ACME", username: "alice", password: "" });
    assert.equal(empty.status, 400);
    assert.equal(empty.json().code, "invalid-request");
    assert.equal(answerMessage(400, empty.json()), "Action Failed");
    const broken = await portal.app.inject({
      method: "POST",
      url: "/api/auth/client",
      headers: { "content-type": "application/json", "x-portal-request": "1" },
      payload: "{not json",
    });
    assert.equal(broken.statusCode, 400);
    assert.equal(broken.json().code, "invalid-request", "a body that is not JSON too");
  });

  it("'Use another account' cancels the pending sign-in and returns to its tab, without the signed-out notice", async () => {
    const visitor = new PortalClient(portal.app);
    await visitor.post("/api/auth/vendor", { username: "vera", password: DEMO_PASSWORD });
    const pending = new Map(visitor.cookies);
    const answer = await portal.app.inject({
      method: "POST",
      url: "/session/logout",
      headers: { cookie: visitor.cookieHeader, "content-type": "application/x-www-form-urlencoded" },
      payload: "intent=use-another-account",
    });
    assert.equal(answer.statusCode, 303);
    assert.equal(answer.headers.location, "/?activeSite=VENDOR");
    const replay = new PortalClient(portal.app);
    replay.cookies = pending;
    assert.equal((await replay.post("/api/web/vendor/mfa/generate")).status, 401, "the pending sign-in is over");
  });

  it("a used or unknown link spent beside a session says so (tokenHeld false), and leaves that session as it was", async () => {
    const alice = await signIn(portal.app, accounts.alice, portal.code);
    const answer = await portal.app.inject({
      method: "POST",
      url: "/api/auth/vendor-token?uuid=00000000-0000-4000-8000-000000000000",
      headers: { cookie: alice.cookieHeader, "x-portal-request": "1", "x-portal-replace-session": "1" },
    });
    assert.equal(answer.statusCode, 200);
    assert.deepEqual(answer.json(), { tokenHeld: false }, "the island shows Invalid Login");
    assert.equal((await alice.get("/client/home")).status, 200, "alice is still signed in");
  });

  it("B2: a link spent beside a session is refused (409, naming that session) until the person's click sends the confirmation", async () => {
    const alice = await signIn(portal.app, accounts.alice, portal.code);
    const { uuid } = await sandboxPost(portal.sandboxUrl, "/sandbox/link-login", { site: "vendor", username: "vera" });
    const url = `/api/auth/vendor-token?uuid=${uuid}`;
    const refused = await alice.post(url);
    assert.equal(refused.status, 409);
    assert.deepEqual(refused.json(), { detail: "You are signed in as alice, ACME.", code: "session-exists" });
    assert.equal((await alice.get("/client/home")).status, 200, "alice's session is untouched");
    const confirmed = await portal.app.inject({
      method: "POST",
      url,
      headers: { cookie: alice.cookieHeader, "x-portal-request": "1", "x-portal-replace-session": "1" },
    });
    assert.deepEqual(
      confirmed.json(),
      { tokenHeld: true, message: "Success" },
      "the link was not spent by the refusal",
    );
  });

  it("a plain sign-out still says so", async () => {
    const visitor = await signIn(portal.app, accounts.vera, portal.code);
    const answer = await visitor.post("/session/logout");
    assert.equal(answer.headers.location, "/?signed-out");
  });

  it("the header names the client's company as well as the user", async () => {
    const visitor = await signIn(portal.app, accounts.gary, portal.code);
    const home = await visitor.get("/client/home");
    assert.equal(home.status, 200);
    assert.match(home.text, /GLOBEX/);
  });
});

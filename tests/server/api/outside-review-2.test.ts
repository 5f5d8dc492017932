// The second outside review of the rebuilt core (issue 11): a token the portal could not send back, a refusal that
// outlived its session, a form body on /api, slot markers in what a page shows, and a malformed address's headers.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { happyUpstream, sendJson } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { type PortalOnFake, portalOnFake } from "#tests/support/portal-on-fake.ts";

const portals: PortalOnFake[] = [];
after(() => Promise.all(portals.map((portal) => portal.close())));
async function fake(...args: Parameters<typeof portalOnFake>) {
  const portal = await portalOnFake(...args);
  portals.push(portal);
  return portal;
}

describe("outside review of the rebuilt core", () => {
  for (const [what, token] of [
    ["a newline", "tok-a\nb"],
    ["a character beyond Latin-1", "tok-\u0100x"],
    ["a trailing space", "tok-ends-with-space "],
  ] as const) {
    it(`a token with ${what} is refused at sign-in (502, no session) and the portal keeps serving`, async () => {
      const { app } = await fake(happyUpstream({ token }));
      const client = new PortalClient(app);
      const login = await client.post("/api/auth/client", { shortname: "ACME", username: "alice", password: "pw" });
      assert.equal(login.status, 502);
      assert.deepEqual(login.json(), {});
      const link = await client.post("/api/auth/client-token?uuid=link-0001");
      assert.equal(link.status, 502, "a link sign-in with it is refused too");
      assert.equal(client.cookies.size, 0, "no session is handed to the browser");
      assert.equal((await client.get("/register")).status, 200);
      assert.equal((await client.get("/healthz")).status, 200);
    });
  }

  it("a refusal ends its session, and a later sign-in the upstream issues the same token opens normally", async () => {
    let refuse = true;
    const happy = happyUpstream();
    const { app, code } = await fake((call, response) => {
      if (refuse && call.method === "GET" && call.path.includes("/user-info")) return sendJson(response, 401, {});
      return happy(call, response);
    });
    const first = new PortalClient(app);
    await first.post("/api/auth/client", { shortname: "ACME", username: "alice", password: "pw" });
    await first.post("/api/web/client/mfa/generate");
    await first.post(`/api/web/client/mfa/validate/${await code(accounts.alice)}`);
    const page = await first.get("/client/home");
    assert.equal(page.status, 302, "the refused session ends");
    refuse = false;
    const again = await signIn(app, accounts.alice, code);
    assert.equal((await again.get("/client/home")).status, 200, "the token issued again is not still refused");
  });

  it("a form-encoded body on /api is refused with 415 before anything is spent or forwarded", async () => {
    const fakeUpstream = await fake();
    const client = await signIn(fakeUpstream.app, accounts.alice, fakeUpstream.code);
    const calls = fakeUpstream.upstream.calls.length;
    const answer = await fakeUpstream.app.inject({
      method: "POST",
      url: "/api/web/client/password/test",
      headers: {
        "x-portal-request": "1",
        "content-type": "application/x-www-form-urlencoded",
        cookie: client.cookieHeader,
      },
      payload: "userId=alice&password=x",
    });
    assert.equal(answer.statusCode, 415);
    assert.equal(answer.json().code, "invalid-request");
    assert.equal(fakeUpstream.upstream.calls.length, calls, "nothing reached the upstream");
  });

  it("a path that spells a slot of the kept HTML shows as typed, never as the answer's nonce", async () => {
    const { app, code } = await fake();
    const client = await signIn(app, accounts.alice, code);
    for (const slot of ["nonce-slot-4c1e9b7d", "idle-slot-4c1e9b7d"]) {
      const answer = await client.get(`/client/${slot}`);
      const nonce = /'nonce-([^']+)'/.exec(String(answer.headers["content-security-policy"]))?.[1];
      assert.ok(nonce);
      assert.ok(!answer.text.includes(`/client/${nonce}`), "the nonce is not written into the address");
    }
    const signedOut = new PortalClient(app);
    const login = await signedOut.get("/?return=/client/nonce-slot-4c1e9b7d");
    const nonce = /'nonce-([^']+)'/.exec(String(login.headers["content-security-policy"]))?.[1];
    assert.ok(nonce && !login.text.includes(`/client/${nonce}`));
  });

  it("a malformed address is refused with the security headers of every answer", async () => {
    const { app } = await fake();
    for (const url of ["/%", "/client/%zz"]) {
      const answer = await new PortalClient(app).get(url);
      assert.equal(answer.status, 400, url);
      assert.equal(answer.headers["x-content-type-options"], "nosniff", url);
      assert.match(String(answer.headers["strict-transport-security"]), /max-age=31536000/, url);
      assert.match(String(answer.headers["content-security-policy"]), /default-src 'none'/, url);
      assert.equal(answer.headers["referrer-policy"], "same-origin", url);
    }
  });

  it("the password test names the session's own user, whatever the browser sends", async () => {
    const fakeUpstream = await fake();
    const client = await signIn(fakeUpstream.app, accounts.alice, fakeUpstream.code);
    const test = await client.post("/api/web/client/password/test", { userId: "someone-else", password: "pw" });
    assert.equal(test.status, 200);
    const [sent] = fakeUpstream.upstream.callsTo(/\/password\/test$/).slice(-1);
    assert.equal(JSON.parse(sent?.body ?? "{}").userId, "alice");
  });

  it("a wrong current password cancels a test passed before it", async () => {
    let wrong = false;
    const happy = happyUpstream();
    const fakeUpstream = await fake((call, response) => {
      if (wrong && call.path.endsWith("/password/test")) return sendJson(response, 400, { detail: "Wrong password" });
      return happy(call, response);
    });
    const client = await signIn(fakeUpstream.app, accounts.alice, fakeUpstream.code);
    const test = { userId: "alice", password: "pw" };
    assert.equal((await client.post("/api/web/client/password/test", test)).status, 200);
    wrong = true;
    assert.equal((await client.post("/api/web/client/password/test", test)).status, 400);
    const change = await client.post("/api/web/client/password/change", { password: "New-Portal-2026!x" });
    assert.equal(change.status, 400);
    assert.equal((change.json() as { code: string }).code, "password-not-tested");
  });
});

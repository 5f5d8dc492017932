// server/api/password-test.ts: a password change needs a test of the current password just before it, for the
// session's own user; a passed test is spent by the change it allows, once, whichever copy of the cookie spends it.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { happyUpstream, sendJson } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { type PortalOnFake, portalOnFake } from "#tests/support/portal-on-fake.ts";

const MINUTE = 60_000;

const portals: PortalOnFake[] = [];
after(() => Promise.all(portals.map((portal) => portal.close())));
/** A portal on a fake upstream, closed after the file's tests. */
async function onFake(...args: Parameters<typeof portalOnFake>) {
  const portal = await portalOnFake(...args);
  portals.push(portal);
  return portal;
}

describe("the test of the current password", () => {
  it("the password test names the session's own user, whatever the browser sends", async () => {
    const fakeUpstream = await onFake();
    const client = await signIn(fakeUpstream.app, accounts.alice, fakeUpstream.code);
    const test = await client.post("/api/web/client/password/test", { userId: "someone-else", password: "pw" });
    assert.equal(test.status, 200);
    const [sent] = fakeUpstream.upstream.callsTo(/\/password\/test$/).slice(-1);
    assert.equal(JSON.parse(sent?.body ?? "{}").userId, "alice");
  });

  it("a wrong current password cancels a test passed before it", async () => {
    let wrong = false;
    const happy = happyUpstream();
    const fakeUpstream = await onFake((call, response) => {
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

describe("a password change", () => {
  it("the password cannot be changed without the current password: no test call, a failed one, a spent one or a stale one is refused before the upstream", async () => {
    let clock = Date.now();
    const happy = happyUpstream();
    let testPasses = true;
    const fake = await portalOnFake(
      (call, response) =>
        /\/password\/test$/.test(call.path) && !testPasses
          ? sendJson(response, 400, { description: "The current password is not correct." })
          : happy(call, response),
      { now: () => clock },
    );
    try {
      const visitor = await signIn(fake.app, accounts.alice, fake.code);
      const test = () => visitor.post("/api/web/client/password/test", { userId: "alice", password: "pw" });
      const change = () => visitor.post("/api/web/client/password/change", { password: "Brand-New-Pass-2026!" });
      const refused = async (what: string) => {
        const answer = await change();
        assert.equal(answer.status, 400, what);
        assert.match(String(answer.json().detail), /current password/i, `${what}: the person is told why`);
      };

      await refused("no test call");
      testPasses = false;
      assert.equal((await test()).status, 400, "a wrong current password");
      await refused("after a failed test call");
      testPasses = true;
      assert.equal((await test()).status, 200);
      clock += 6 * MINUTE;
      await refused("a test call six minutes old");
      assert.equal((await test()).status, 200);
      assert.equal((await change()).status, 200, "a test call just before: the change goes through");
      await refused("the same test call a second time");
      assert.equal(
        fake.upstream.callsTo(/\/password\/change$/).length,
        1,
        "only the tested change reached the upstream",
      );
    } finally {
      await fake.close();
    }
  });

  it("a passed password test is spent once, even by a replayed copy of the cookie", async () => {
    const fake = await portalOnFake(happyUpstream());
    try {
      const visitor = await signIn(fake.app, accounts.alice, fake.code);
      await visitor.post("/api/web/client/password/test", { userId: "alice", password: "pw" });
      const copy = new PortalClient(fake.app);
      copy.cookies = new Map(visitor.cookies);
      const change = { password: "Brand-New-Passw0rd!" };
      assert.equal((await visitor.post("/api/web/client/password/change", change)).status, 200);
      const replay = await copy.post("/api/web/client/password/change", change);
      assert.equal(replay.status, 400, "the copy's test was spent");
      assert.equal(replay.json().code, "password-not-tested");
      assert.equal(fake.upstream.callsTo(/password\/change/).length, 1);
    } finally {
      await fake.close();
    }
  });
});

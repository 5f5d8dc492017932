// server/api/effects.ts: what a sign-in or password-change answer does to the session: a token the portal could not
// send back is refused; a link answer that does not say the account's state opens nothing until the permissions call
// answers for it; a password change ends the person's other sessions when the form's box is checked (the default),
// and always on the forced change of an expired password, saying how many ended.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { after, before, describe, it } from "node:test";
import { happyUpstream, sendJson } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, DEMO_PASSWORD, signIn } from "#harness/sign-in.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";
import { portalOnFake, portalsOnFakeForFile } from "#tests/support/portal-on-fake.ts";
import { answerMessage } from "#web/api/answer.ts";
import { END_OTHERS_HEADER, ENDED_COUNT_HEADER, ENDING_HEADER } from "#web/api/end-others.ts";

/** A portal on a fake upstream, closed after the file's tests. */
const onFake = portalsOnFakeForFile();

describe("the token a sign-in answer hands over", () => {
  for (const [what, token] of [
    ["a newline", "tok-a\nb"],
    ["a character beyond Latin-1", "tok-\u0100x"],
    ["a trailing space", "tok-ends-with-space "],
  ] as const) {
    it(`a token with ${what} is refused at sign-in (502, no session) and the portal keeps serving`, async () => {
      const { app } = await onFake(happyUpstream({ token }));
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
});

describe("a link sign-in", () => {
  it("B3: whose answer does not give the account's state opens no section until the permissions call answers for it", async () => {
    const happy = happyUpstream();
    const fake = await portalOnFake((call, response) =>
      /\/user-info$/.test(call.path) ? sendJson(response, 403, { detail: "Password Expired" }) : happy(call, response),
    );
    try {
      const visitor = new PortalClient(fake.app);
      const link = await visitor.post("/api/auth/client-token?uuid=a-link-without-a-state");
      assert.equal(link.json().tokenHeld, false, "the link opened nothing");
      assert.equal(
        (await visitor.get("/client/home")).headers.location,
        "/?return=%2Fclient%2Fhome",
        "no section page",
      );
      assert.equal((await visitor.get("/pdfs/BankHolidays.pdf")).status, 401, "no document");
    } finally {
      await fake.close();
    }
  });
});

describe("a password change and the other sessions", () => {
  let portal: RunningPortal;
  before(async () => {
    portal = await startPortalInProcess({ listen: false });
  });
  after(() => portal.close());

  const opens = async (client: PortalClient, path = "/client/home") => (await client.copy().get(path)).status === 200;
  const change = async (client: PortalClient, site: string, from: string, to: string, endOthers?: "1" | "0") => {
    const tested = await client.post(`/api/web/${site}/password/test`, { userId: "someone", password: from });
    assert.equal(tested.status, 200, tested.text);
    const headers: Record<string, string> = endOthers ? { [END_OTHERS_HEADER]: endOthers } : {};
    return client.request("POST", `/api/web/${site}/password/change`, { password: to }, headers);
  };

  it("with the box checked, ends every other session of the person, and says how many", async () => {
    const first = await signIn(portal.app, accounts.alice, portal.code);
    const second = await signIn(portal.app, accounts.alice, portal.code);
    const here = await signIn(portal.app, accounts.alice, portal.code);
    const victor = await signIn(portal.app, accounts.victor, portal.code);
    const answer = await change(here, "client", DEMO_PASSWORD, "Changed-Once-2026!", "1");
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.headers[ENDED_COUNT_HEADER], "2");
    assert.equal(answer.headers[ENDING_HEADER], undefined, "done, not on its way");
    assert.equal(await opens(first), false);
    assert.equal(await opens(second), false);
    assert.ok(await opens(here), "this session goes on");
    assert.ok(await opens(victor), "no one else's session ends");
  });

  it("with the box cleared, ends nothing", async () => {
    const other = await signIn(portal.app, accounts.victor, portal.code);
    const here = await signIn(portal.app, accounts.victor, portal.code);
    const answer = await change(here, "client", DEMO_PASSWORD, "Changed-Twice-2026!", "0");
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.headers[ENDED_COUNT_HEADER], undefined);
    assert.ok(await opens(other));
  });

  it("the forced change of an expired password ends every other session, without asking", async () => {
    const other = await signIn(portal.app, accounts.paula, portal.code);
    const here = await signIn(portal.app, accounts.paula, portal.code);
    const answer = await change(here, "client", DEMO_PASSWORD, "Not-Expired-2026!");
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.headers[ENDED_COUNT_HEADER], "1");
    assert.equal((await other.copy().get("/client/home")).headers.location, "/?return=%2Fclient%2Fhome");
    assert.ok(await opens(here), "the changed session is signed in");
  });
});

describe("a link spent beside a session", () => {
  let portal: RunningPortal;
  before(async () => {
    portal = await startPortalInProcess({ listen: false });
  });
  after(() => portal.close());

  it("a used or unknown link says so (tokenHeld false), and leaves that session as it was", async () => {
    const alice = await signIn(portal.app, accounts.alice, portal.code);
    const answer = await alice.post("/api/auth/vendor-token?uuid=00000000-0000-4000-8000-000000000000", undefined, {
      "x-portal-replace-session": "1",
    });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json(), { tokenHeld: false }, "the island shows Invalid Login");
    assert.equal((await alice.get("/client/home")).status, 200, "alice is still signed in");
  });
});

describe("a token too large for a session (SECURITY.md's break B9)", () => {
  it("B9: a 1 MB token is refused before any work on it: the event loop never stalls, the person is told, no session is held", async () => {
    const token = randomBytes(750_000).toString("base64url"); // 1,000,000 characters
    const big = await portalOnFake(happyUpstream({ token }));
    try {
      const stalls = monitorEventLoopDelay({ resolution: 10 });
      stalls.enable();
      const visitor = new PortalClient(big.app);
      const answer = await visitor.post("/api/auth/client", { shortname: "ACME", username: "alice", password: "pw" });
      // The monitor's timer must fire once more: a stall just before the answer is recorded only then.
      await new Promise((resolve) => setTimeout(resolve, 50));
      stalls.disable();
      const worst = stalls.max / 1e6;
      assert.ok(worst < 250, `the event loop stalled for ${worst.toFixed(0)} ms`);
      assert.equal(answer.status, 502);
      assert.match(answerMessage(answer.status, answer.json()), /session is too large/);
      assert.equal((await visitor.get("/mfa")).headers.location, "/", "no token is held");
    } finally {
      await big.close();
    }
  });
});

// server/actions/effects.ts: what a sign-in or password-change answer does to the session: the token decides a sign-in,
// whatever message comes with it and whichever dialect the upstream speaks; a token the portal could not send back is
// refused; a message, or a link answer, that does not say the account's state opens nothing until the permissions
// call answers for it; a password change ends the person's other sessions when the form's box is checked (the
// default), and always on the forced change of an expired password, saying how many ended.
import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { after, before, describe, it } from "node:test";
import { type Answer, happyUpstream, sendJson, type UpstreamScript } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { RedisServer } from "#harness/redis-server.ts";
import { accounts, DEMO_PASSWORD, signIn } from "#harness/sign-in.ts";
import { dialects } from "#harness/upstream-dialect.ts";
import { personOf } from "#server/account/person.ts";
import { signInAnswer } from "#server/actions/effects.ts";
import { type RunningPortal, SHARED_COUNTS_REDIS_MS, startPortalInProcess } from "#tests/support/portal.ts";
import { type PortalOnFake, portalOnFake, portalsOnFakeForFile } from "#tests/support/portal-on-fake.ts";
import { scaled, until } from "#tests/support/waiting.ts";
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

describe("a sign-in answer, as requirements 4.1 reads it", () => {
  it("the token decides: no token is a failed sign-in, whatever the message", () => {
    for (const body of [{}, undefined, { message: "Invalid" }, { message: "Success" }, { message: "Deactivated" }])
      assert.deepEqual(signInAnswer(body), { untold: false }, JSON.stringify(body));
    assert.deepEqual(signInAnswer({ token: "", message: "Success" }), { untold: false }, "an empty token is none");
  });

  it("with a token, a known message keeps its meaning, none is none, and any other is untold", () => {
    assert.deepEqual(signInAnswer({ token: "t", message: "Password Expired", extra: 1 }), {
      token: "t",
      message: "Password Expired",
      untold: false,
    });
    assert.deepEqual(signInAnswer({ token: "t" }), { token: "t", untold: false });
    assert.deepEqual(signInAnswer({ token: "t", message: "Welcome back" }), { token: "t", untold: true });
    assert.deepEqual(
      signInAnswer({ token: "t", message: "success" }),
      { token: "t", untold: true },
      "spelled as given",
    );
  });
});

for (const dialect of dialects) {
  describe(`a sign-in against an upstream speaking the ${dialect} dialect`, () => {
    // One portal for the dialect; each test sets what its upstream answers.
    let fake: PortalOnFake;
    before(async () => {
      fake = await onFake();
    });
    const on = async (script: UpstreamScript = {}) => {
      fake.upstream.answer = happyUpstream({ dialect, ...script });
      return fake;
    };
    const login = (client: PortalClient) =>
      client.post("/api/auth/client", { shortname: "ACME", username: "alice", password: DEMO_PASSWORD });

    it("signs a person in: password, a code sent, the verdict, the permissions, the section", async () => {
      const fake = await on();
      const client = await signIn(fake.app, accounts.alice, fake.code);
      assert.equal((await client.get("/client/home")).status, 200);
      assert.equal((await client.get("/client/vip/dashboard")).status, 200, "the permissions were read");
    });

    it("a wrong password is Invalid Login, with no pending sign-in, whatever message comes with no token", async () => {
      const fake = await on({ refuseLogins: true });
      const client = new PortalClient(fake.app);
      const answer = await login(client);
      assert.deepEqual([answer.status, answer.json()], [200, { tokenHeld: false }], "the island shows Invalid Login");
      assert.equal((await client.get("/mfa")).headers.location, "/", "no sign-in is pending");
    });

    it("a token with Deactivated keeps none; Deactivated with no token is Invalid Login", async () => {
      const deactivated = new PortalClient((await on({ message: "Deactivated" })).app);
      assert.deepEqual((await login(deactivated)).json(), { message: "Deactivated", tokenHeld: false });
      assert.equal((await deactivated.get("/mfa")).headers.location, "/");
      const fake = await on({ refuseLogins: true });
      fake.upstream.answer = (_call, response) => sendJson(response, 200, { message: "Deactivated" });
      assert.deepEqual((await login(new PortalClient(fake.app))).json(), { tokenHeld: false });
    });

    it("a message the portal does not know, with a token, goes to the MFA step and opens the section once the permissions answer", async () => {
      const fake = await on({ message: "Welcome back" });
      const client = new PortalClient(fake.app);
      assert.deepEqual((await login(client)).json(), { tokenHeld: true }, "held; the message is not passed on");
      assert.equal((await client.get("/client/home")).headers.location, "/mfa", "the MFA step replaces the form");
      await client.post("/api/web/client/mfa/generate");
      await client.post("/api/web/client/mfa/validate/123456");
      assert.equal((await client.get("/client/home")).status, 200);
    });

    it("a message the portal does not know opens nothing when the permissions call fails: the sign-in ends", async () => {
      const fake = await on({ message: "Account Locked" });
      const happy = fake.upstream.answer;
      fake.upstream.answer = (call, response) =>
        /\/user-info$/.test(call.path) ? sendJson(response, 503, {}) : happy(call, response);
      const client = new PortalClient(fake.app);
      await login(client);
      await client.post("/api/web/client/mfa/generate");
      const verdict = await client.post("/api/web/client/mfa/validate/123456");
      assert.deepEqual(verdict.json(), [{ text: "Passed" }]);
      const home = await client.get("/client/home");
      assert.equal(home.status, 302);
      assert.equal(home.headers.location, "/?return=%2Fclient%2Fhome", "signed out, not in the section");
    });

    it("a link signs a person in; a link answered with no token is Invalid Login", async () => {
      const fake = await on();
      const client = new PortalClient(fake.app);
      assert.equal((await client.post("/api/auth/vendor-token?uuid=link-0001")).json().tokenHeld, true);
      assert.equal((await client.get("/vendor/home")).status, 200);
      const refused = await on({ refuseLinks: true });
      const visitor = new PortalClient(refused.app);
      const answer = await visitor.post("/api/auth/client-token?uuid=link-0002");
      assert.deepEqual([answer.status, answer.json()], [200, { tokenHeld: false }]);
      assert.equal((await visitor.get("/client/home")).status, 302);
    });

    it("a password change: the test and the change pass, and a refused change shows its message", async () => {
      const fake = await on({ message: "Password Expired" });
      const client = await signIn(fake.app, accounts.alice, fake.code);
      assert.equal((await client.get("/client/home")).headers.location, "/mfa", "the password is to be changed");
      const test = () => client.post("/api/web/client/password/test", { userId: "alice", password: DEMO_PASSWORD });
      assert.equal((await test()).status, 200);
      const happy = fake.upstream.answer;
      fake.upstream.answer = happyUpstream({
        dialect,
        refuse: { change: { status: 400, errors: { P: "Too weak." } } },
      });
      const refused = await client.post("/api/web/client/password/change", { password: "Brand-New-Dialect-2026!" });
      assert.equal(answerMessage(refused.status, refused.json()), "Too weak.");
      fake.upstream.answer = happy;
      assert.equal((await test()).status, 200);
      const changed = await client.post("/api/web/client/password/change", { password: "Brand-New-Dialect-2026!" });
      assert.deepEqual([changed.status, changed.json()], [200, {}], "Password Successfully Changed!");
      assert.equal((await client.get("/client/home")).status, 200);
    });
  });
}

describe("a wrong password from a problem-details upstream, on two replicas sharing one Redis", () => {
  let redis: RedisServer;
  before(async () => {
    redis = await RedisServer.start();
  });
  after(() => redis.stop());

  it("is a failed sign-in for the throttles and the person's security activity, on every replica", async () => {
    const right = happyUpstream({ dialect: "problem-details" });
    const wrong = happyUpstream({ dialect: "problem-details", refuseLogins: true });
    const upstream: Answer = (call, response) =>
      (JSON.parse(call.body || "{}").password === DEMO_PASSWORD ? right : wrong)(call, response);
    const env = {
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: `dialect-${randomUUID()}:`,
      RATE_LIMIT_USER_PER_MINUTE: "2",
      RATE_LIMIT_IP_PER_MINUTE: "100",
    };
    const shared = { env, redisCommandMs: SHARED_COUNTS_REDIS_MS }; // the counts must be shared to add up
    const [a, b] = [await onFake(upstream, shared), await onFake(upstream, shared)];
    const attempt = (replica: typeof a, username: string) =>
      new PortalClient(replica.app, { remoteAddress: "198.51.100.7" }).post("/api/auth/client", {
        shortname: "ACME",
        username,
        password: "Wrong-Password-2026!",
      });
    for (const replica of [a, b]) {
      const answer = await attempt(replica, "bob");
      assert.deepEqual([answer.status, answer.json()], [200, { tokenHeld: false }], "Invalid Login");
    }
    assert.equal((await attempt(a, "bob")).status, 429, "the two failures, one on each replica, used bob's limit");

    await signIn(a.app, accounts.alice, a.code);
    assert.deepEqual((await attempt(b, "alice")).json(), { tokenHeld: false });
    const alice = personOf({ site: "client", company: "ACME", userName: "alice" });
    for (const replica of [a, b])
      await until(
        async () =>
          (await replica.app.account?.activity.recent(alice))?.failures.since(0)[0]?.kind === "sign-in.failed",
        5_000,
        "the failed sign-in in alice's activity",
      );
  });
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

describe("a link sign-in whose message the portal does not know", () => {
  it("opens no section when the permissions call fails, and the section when it answers", async () => {
    const happy = happyUpstream();
    let permissions = false;
    const fake = await onFake((call, response) => {
      if (/-token$/.test(call.path.split("?")[0] ?? ""))
        return sendJson(response, 200, { token: "tok-link", message: "Welcome back" });
      if (/\/user-info$/.test(call.path) && !permissions) return sendJson(response, 503, {});
      return happy(call, response);
    });
    const refused = new PortalClient(fake.app);
    assert.deepEqual((await refused.post("/api/auth/client-token?uuid=link-1")).json(), { tokenHeld: false });
    assert.equal((await refused.get("/client/home")).status, 302, "no section");
    permissions = true;
    const opened = new PortalClient(fake.app);
    assert.deepEqual((await opened.post("/api/auth/client-token?uuid=link-2")).json(), { tokenHeld: true });
    assert.equal((await opened.get("/client/home")).status, 200);
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
      assert.ok(worst < scaled(250), `the event loop stalled for ${worst.toFixed(0)} ms`);
      assert.equal(answer.status, 502);
      assert.match(answerMessage(answer.status, answer.json()), /session is too large/);
      assert.equal((await visitor.get("/mfa")).headers.location, "/", "no token is held");
    } finally {
      await big.close();
    }
  });
});

describe("null as no value, and what a link answer names beside its token (review F2, F3)", () => {
  const login = (client: PortalClient) =>
    client.post("/api/auth/client", { shortname: "ACME", username: "alice", password: DEMO_PASSWORD });
  const answering = (body: unknown, path: RegExp) => {
    const happy = happyUpstream();
    return (call: Parameters<Answer>[0], response: Parameters<Answer>[1]) =>
      path.test(call.path.split("?")[0] ?? "") ? sendJson(response, 200, body) : happy(call, response);
  };

  it("F2: a null token is no token: Invalid Login, counted as a failed sign-in", async () => {
    const fake = await onFake(happyUpstream());
    await signIn(fake.app, accounts.alice, fake.code); // activity is kept for a person who has some
    const alice = personOf({ site: "client", company: "ACME", userName: "alice" });
    for (const body of [
      { token: null, message: "Invalid credentials" },
      { message: null },
      { token: null, message: { code: 7 } },
    ]) {
      fake.upstream.answer = answering(body, /^\/auth\/client$/);
      const client = new PortalClient(fake.app);
      const answer = await login(client);
      assert.deepEqual([answer.status, answer.json()], [200, { tokenHeld: false }], JSON.stringify(body));
      assert.equal((await client.get("/mfa")).headers.location, "/", "no sign-in is pending");
    }
    await until(
      async () => (await fake.app.account?.activity.recent(alice))?.failures.since(0)[0]?.kind === "sign-in.failed",
      5_000,
      "the failed sign-in in alice's activity",
    );
  });

  it("F2: a link answered with a null token is Invalid Login", async () => {
    const fake = await onFake(answering({ token: null }, /-token$/));
    const answer = await new PortalClient(fake.app).post("/api/auth/client-token?uuid=link-null");
    assert.deepEqual([answer.status, answer.json()], [200, { tokenHeld: false }]);
  });

  it("F2: a token that is not a string, or a message that is not one beside a token, is still refused", async () => {
    for (const body of [
      { token: 5 },
      { token: { value: "t" } },
      { token: "t", message: 5 },
      { token: "t", message: {} },
    ]) {
      const fake = await onFake(answering(body, /^\/auth\/client$/));
      const answer = await login(new PortalClient(fake.app));
      assert.equal(answer.status, 502, JSON.stringify(body));
    }
  });

  it("F3: a link whose username is not a string signs in, once the permissions answer for it", async () => {
    for (const extra of [
      { message: "Success", username: 1042 },
      { message: "Success", username: null },
      { message: "Success", username: { id: 1042 } },
      { message: null, username: "alice" },
    ]) {
      const fake = await onFake(answering({ token: "lt9", ...extra }, /-token$/));
      const client = new PortalClient(fake.app);
      const answer = await client.post("/api/auth/client-token?uuid=link-odd");
      assert.deepEqual([answer.status, answer.json().tokenHeld], [200, true], JSON.stringify(extra));
      assert.equal((await client.get("/client/home")).status, 200, JSON.stringify(extra));
    }
  });

  it("F2: a link whose message beside its token is not a string is refused, as a password sign-in's is", async () => {
    for (const message of [{ state: "ok" }, ["Password Expired"], 5]) {
      const fake = await onFake(answering({ token: "lt9", message, username: "alice" }, /-token$/));
      const client = new PortalClient(fake.app);
      const answer = await client.post("/api/auth/client-token?uuid=link-odd");
      assert.equal(answer.status, 502, JSON.stringify(message));
      assert.equal((await client.get("/client/home")).status, 302, `no section: ${JSON.stringify(message)}`);
    }
  });
});

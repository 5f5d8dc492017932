// Every upstream answer is checked against openapi/portal.yaml before it changes the session: an answer of another
// shape, to each forwarded operation whose answer the session reads and to the permissions call, is a fault that
// changes nothing, answers as a failed call, and is logged with the field that was wrong.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, beforeEach, describe, it } from "node:test";
import { setTimeout } from "node:timers/promises";
import { fullPermissions, happyUpstream, sendJson } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { TEST_LOGS } from "#tests/support/portal.ts";
import { type PortalOnFake, portalOnFake } from "#tests/support/portal-on-fake.ts";
import type { LoginMessage } from "#web/site.ts";

/** The one call the upstream answers wrongly, and how; every other call is answered as the sandbox would. */
let wrong: { route: RegExp; body: unknown } | undefined;
let loginMessage: LoginMessage = "Success";
let fake: PortalOnFake;

// One describe holds the file's hooks: they run for its tests only, even where test files share a process.
describe("upstream answers checked against the spec", () => {
  before(async () => {
    fake = await portalOnFake((call, response) => {
      const route = `${call.method} ${call.path.split("?")[0]}`;
      if (wrong?.route.test(route)) return sendJson(response, 200, wrong.body);
      return happyUpstream({ message: loginMessage })(call, response);
    });
  });
  after(() => fake.close());
  beforeEach(() => {
    wrong = undefined;
    loginMessage = "Success";
  });

  const logFile = `${TEST_LOGS}portal-${process.pid}.log`;
  const logLength = () => readFileSync(logFile, "utf8").length;
  /** The wrong-shape faults logged since `from`, once the log (written asynchronously) holds any. */
  async function shapeFaults(from: number): Promise<Record<string, unknown>[]> {
    for (let tries = 0; ; tries++) {
      const faults = readFileSync(logFile, "utf8")
        .slice(from)
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.fault === "wrong-shape");
      if (faults.length > 0 || tries === 50) return faults;
      await setTimeout(20);
    }
  }

  /** The session cookie's value (or undefined when the client holds none). */
  const sessionCookie = (client: PortalClient) => client.cookies.get("portal-session");

  /** The operations whose run of faults has been logged: no call of theirs succeeds in this file after its first fault. */
  const runsLogged = new Set<string>();

  /** Answers the call wrongly, makes it, and checks it failed as a fault naming the field, with the session unchanged. */
  async function refused(
    client: PortalClient,
    call: { path: string; body?: unknown; upstream: RegExp; answer: unknown; field: string },
  ) {
    wrong = { route: call.upstream, body: call.answer };
    const before = sessionCookie(client);
    const from = logLength();
    const answer = await client.post(call.path, call.body);
    assert.equal(answer.status, 502, `${call.path}: a failed call (${answer.text})`);
    assert.deepEqual(answer.json(), {}, "no word of the answer reaches the browser");
    assert.equal(sessionCookie(client), before, "the session is as it was");
    // A run of faults of one operation is logged when it starts (server/plugins/logging.ts, `FailureRun`): the first names the field, a
    // fault within a run already logged adds no line.
    const faults = await shapeFaults(from);
    assert.ok(faults.length <= 1, "at most one line");
    const first = !runsLogged.has(call.upstream.source);
    if (first) {
      assert.equal(faults.length, 1, "the run's first fault is logged");
      runsLogged.add(call.upstream.source);
    }
    if (faults.length === 1) assert.equal(faults[0]?.field, call.field, "the log names the field");
    wrong = undefined;
    return answer;
  }

  const clientLogin = { shortname: "ACME", username: "alice", password: "pw" };

  describe("an upstream answer of the wrong shape", () => {
    it("a password sign-in whose message or token is not a string holds no token", async () => {
      const client = new PortalClient(fake.app);
      await refused(client, {
        path: "/api/auth/client",
        body: clientLogin,
        upstream: /^POST \/auth\/client$/,
        answer: { token: "tok-wrong-shape", message: ["Password Expired"] },
        field: "/message",
      });
      await refused(client, {
        path: "/api/auth/vendor",
        body: { username: "vince", password: "pw" },
        upstream: /^POST \/auth\/vendor$/,
        answer: { token: 42, message: "Success" },
        field: "/token",
      });
      assert.equal((await client.get("/mfa")).status, 302, "no sign-in is pending");
    });

    it("a link sign-in answered with a token that is not a string opens no section", async () => {
      const client = new PortalClient(fake.app);
      await refused(client, {
        path: "/api/auth/client-token?uuid=link-0001",
        upstream: /^POST \/auth\/client-token$/,
        answer: { token: ["tok-wrong-shape"], message: "Success" },
        field: "/token",
      });
      await refused(client, {
        path: "/api/auth/vendor-token?uuid=link-0002",
        upstream: /^POST \/auth\/vendor-token$/,
        answer: { token: 42, username: "vince" },
        field: "/token",
      });
      assert.equal((await client.get("/client/home")).status, 302, "the section is not opened");
      assert.equal(fake.upstream.callsTo(/\/user-info$/).length, 0, "no permissions were asked with the token");
    });

    it("a link sign-in whose message beside a token is not a string opens no section, as a password sign-in", async () => {
      const client = new PortalClient(fake.app);
      await refused(client, {
        path: "/api/auth/client-token?uuid=link-0003",
        upstream: /^POST \/auth\/client-token$/,
        answer: { token: "tok-wrong-shape", message: ["Password Expired"], username: "alice", shortname: "ACME" },
        field: "/message",
      });
      await refused(client, {
        path: "/api/auth/vendor-token?uuid=link-0004",
        upstream: /^POST \/auth\/vendor-token$/,
        answer: { token: "tok-wrong-shape", message: { state: "Password Expired" }, username: "vince" },
        field: "/message",
      });
      assert.equal((await client.get("/client/home")).status, 302, "the section is not opened");
      assert.equal((await client.get("/client/users/change-password")).status, 302, "nor the change-password form");
      assert.equal(fake.upstream.callsTo(/\/user-info$/).length, 0, "no permissions were asked with the token");
    });

    it("an MFA verdict of another shape promotes nothing", async () => {
      const client = new PortalClient(fake.app);
      await client.post("/api/auth/client", clientLogin);
      await client.post("/api/web/client/mfa/generate");
      await refused(client, {
        path: "/api/web/client/mfa/validate/123456",
        upstream: /^POST \/web\/client\/mfa\/validate\//,
        answer: { text: "Passed" },
        field: "",
      });
      await refused(client, {
        path: "/api/web/client/mfa/validate/123456",
        upstream: /^POST \/web\/client\/mfa\/validate\//,
        answer: [{ verdict: "Passed" }],
        field: "/0/text",
      });
      assert.equal((await client.get("/client/home")).headers.location, "/mfa", "still waiting for its code");
    });

    it("a verdict whose first element's text is not a string promotes nothing", async () => {
      const client = new PortalClient(fake.app);
      await client.post("/api/auth/client", clientLogin);
      await client.post("/api/web/client/mfa/generate");
      await refused(client, {
        path: "/api/web/client/mfa/validate/123456",
        upstream: /^POST \/web\/client\/mfa\/validate\//,
        answer: [{ text: ["Passed"] }],
        field: "/0/text",
      });
      assert.equal((await client.get("/client/home")).headers.location, "/mfa", "still waiting for its code");
    });
  });

  describe("an upstream answer whose body the requirements do not read has no wrong shape", () => {
    it("a sent code answered with any body is a sent code, and the browser gets none of it", async () => {
      const client = new PortalClient(fake.app);
      await client.post("/api/auth/client", clientLogin);
      wrong = { route: /^POST \/web\/client\/mfa\/generate$/, body: { ok: "yes", trace: "x" } };
      const answer = await client.post("/api/web/client/mfa/generate");
      assert.deepEqual([answer.status, answer.json()], [200, {}]);
      assert.equal((await client.get("/client/home")).headers.location, "/mfa", "still waiting for its code");
    });

    it("a password test and a password change answered with any body let the change through", async () => {
      loginMessage = "Password Expired";
      const client = await signIn(fake.app, accounts.alice, fake.code);
      wrong = { route: /^POST \/web\/client\/password\/test$/, body: [] };
      const test = await client.post("/api/web/client/password/test", {
        userId: "alice",
        password: "Old-Password-2026!",
      });
      assert.deepEqual([test.status, test.json()], [200, {}], "requirements 7.2: success lets the change proceed");
      wrong = { route: /^POST \/web\/client\/password\/change$/, body: { ok: "changed" } };
      const change = await client.post("/api/web/client/password/change", { password: "Brand-New-Shape-2026!" });
      assert.deepEqual([change.status, change.json()], [200, {}], "the success message is shown");
      assert.equal((await client.get("/client/home")).status, 200, "the password is changed: the section opens");
    });
  });

  describe("an upstream answer of the wrong shape, to the server's own call", () => {
    it("a permissions answer of another shape opens no gate, and the log names the field", async () => {
      const client = await signIn(fake.app, accounts.alice, fake.code);
      wrong = { route: /^GET \/web\/client\/user-info$/, body: { ...fullPermissions, loaded: true, viewOnly: "no" } };
      const from = logLength();
      const home = await client.get("/client/vip/dashboard");
      // Permissions were loaded when MFA passed: a session that has them does not ask again, a new one does.
      const fresh = new PortalClient(fake.app);
      await fresh.post("/api/auth/client", clientLogin);
      await fresh.post("/api/web/client/mfa/generate");
      await fresh.post("/api/web/client/mfa/validate/123456");
      const page = await fresh.get("/client/vip/dashboard");
      assert.equal(page.status, 503, "the gated page says it is still checking");
      assert.equal(home.status, 200, "the session that had them keeps them");
      // Asked when MFA passed and again for the page: each time refused, each time named.
      const fields = (await shapeFaults(from)).map((line) => line.field);
      assert.ok(fields.length > 0, "logged");
      assert.ok(
        fields.every((field) => field === "/viewOnly"),
        fields.join(", "),
      );
    });
  });
});

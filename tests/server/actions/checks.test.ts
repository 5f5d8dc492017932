// server/actions/checks.ts: what is checked before a call leaves: a new password is none of the common or easily guessed
// ones and follows a passed test of the current one, spent once; one code is validated at a time per pending sign-in.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Answer, happyUpstream, sendJson } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, DEMO_PASSWORD, signIn } from "#harness/sign-in.ts";
import { serverTexts } from "#server/texts.ts";
import { type RunningPortal, sandboxPost, startPortalInProcess } from "#tests/support/portal.ts";
import { portalOnFake } from "#tests/support/portal-on-fake.ts";
import { answerMessage } from "#web/api/answer.ts";

/** Passwords that meet requirements 5's rules and are still among the first an attacker tries. */
const common = ["Password123!", "P@ssw0rd1234", "Qwerty123456!", "Welcome2024!", "Password1234!", "Iloveyou123!"];
/** The sandbox's demo password and the new passwords the other tests set. */
const fine = [
  DEMO_PASSWORD,
  "Strong-Password-2026!",
  "Brand-New-Pass-2026!",
  "Brand-New-Passw0rd!",
  "Another-Pass-2026!",
  "Fresh-Start-2026!",
  "Long-Enough-2026!",
  "Petra-Fresh-2026?",
  "Victor-New-2026!",
];

describe("checkNewPassword", () => {
  it("refuses a common password with a clear message the form shows, and the upstream is never asked", async () => {
    const fake = await portalOnFake();
    try {
      const alice: PortalClient = await signIn(fake.app, accounts.alice, fake.code);
      const test = async () =>
        assert.equal(
          (await alice.post("/api/web/client/password/test", { userId: "alice", password: "pw" })).status,
          200,
        );
      for (const password of common) {
        await test(); // the form tests the current password before each change
        const answer = await alice.post("/api/web/client/password/change", { password });
        assert.equal(answer.status, 400, password);
        assert.equal(answer.json().code, serverTexts.commonPassword.code, password);
        assert.equal(
          answerMessage(answer.status, answer.json()),
          serverTexts.commonPassword.message,
          "the form's words",
        );
      }
      // One built from her own user ID or company is told apart: the checklist cannot show that rule.
      for (const password of ["Alice-Ledger-2026!", "Acme-Ledger-2026!"]) {
        await test();
        const answer = await alice.post("/api/web/client/password/change", { password });
        assert.equal(answer.status, 400, password);
        assert.equal(answerMessage(answer.status, answer.json()), serverTexts.personalPassword.message, password);
      }
      assert.equal(fake.upstream.callsTo(/password\/change/).length, 0, "no common password reached the upstream");
      // Each refused password spent its test: the next change needs one of its own.
      const untested = await alice.post("/api/web/client/password/change", { password: "Brand-New-Pass-2026!" });
      assert.equal(untested.json().code, serverTexts.passwordNotTested.code);
      await test();
      const changed = await alice.post("/api/web/client/password/change", { password: "Brand-New-Pass-2026!" });
      assert.equal(changed.status, 200, changed.text);
      assert.equal(fake.upstream.callsTo(/password\/change/).length, 1);
    } finally {
      await fake.close();
    }
  });

  it("estimates no password's strength before a passed test of the current one is spent: a common one untested is refused as untested", async () => {
    const fake = await portalOnFake();
    try {
      const alice = await signIn(fake.app, accounts.alice, fake.code);
      const answer = await alice.post("/api/web/client/password/change", { password: "Password123!" });
      assert.equal(answer.status, 400);
      assert.equal(answer.json().code, serverTexts.passwordNotTested.code, "the cheap check answered first");
    } finally {
      await fake.close();
    }
  });

  it("throttles the change call: every call counts against the session's person", async () => {
    const fake = await portalOnFake(happyUpstream(), { env: { RATE_LIMIT_USER_PER_MINUTE: "3" } });
    try {
      const alice = await signIn(fake.app, accounts.alice, fake.code);
      const statuses: number[] = [];
      for (let call = 0; call < 4; call++)
        statuses.push((await alice.post("/api/web/client/password/change", { password: "Password123!" })).status);
      assert.deepEqual(statuses, [400, 400, 400, 429]);
    } finally {
      await fake.close();
    }
  });

  it("accepts the demo password and every new password the other tests set", async () => {
    const fake = await portalOnFake();
    try {
      const alice = await signIn(fake.app, accounts.alice, fake.code);
      for (const password of fine) {
        await alice.post("/api/web/client/password/test", { userId: "alice", password: "pw" });
        const answer = await alice.post("/api/web/client/password/change", { password });
        assert.equal(answer.status, 200, `${password}: ${answer.text}`);
      }
    } finally {
      await fake.close();
    }
  });
});

const MINUTE = 60_000;

describe("a password change and the test of the current password", () => {
  it("B4: the password cannot be changed without the current password: no test call, a failed one, a spent one or a stale one is refused before the upstream", async () => {
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

describe("one code validated at a time", () => {
  it("B6: ten parallel wrong codes on one pending session reach the upstream no more often than MFA_MAX_WRONG_CODES allows", async () => {
    const happy = happyUpstream();
    const slowWrongCodes: Answer = (call, response) =>
      /mfa\/validate/.test(call.path)
        ? void setTimeout(() => sendJson(response, 200, [{ text: "Failed" }]), 100)
        : happy(call, response);
    const fake = await portalOnFake(slowWrongCodes, { env: { MFA_MAX_WRONG_CODES: "5" } });
    try {
      const visitor = new PortalClient(fake.app);
      await visitor.post("/api/auth/client", { shortname: "ACME", username: "alice", password: "pw" });
      const guess = (code: number) => visitor.copy().post(`/api/web/client/mfa/validate/${code}`);
      const parallel = await Promise.all(Array.from({ length: 10 }, (_, index) => guess(900_000 + index)));
      assert.ok(
        parallel.every((answer) => answer.status < 500),
        parallel.map((a) => a.status).join(),
      );
      const reached = () => fake.upstream.callsTo(/mfa\/validate/).length;
      assert.ok(reached() <= 5, `${reached()} of 10 parallel codes reached the upstream`);
      for (let round = 0; round < 10; round++) await guess(910_000 + round);
      assert.ok(reached() <= 5, `${reached()} codes in all reached the upstream for one pending sign-in`);
    } finally {
      await fake.close();
    }
  });
});

describe("a link spent beside a session", () => {
  let portal: RunningPortal;
  before(async () => {
    portal = await startPortalInProcess({ listen: false });
  });
  after(() => portal.close());

  it("B2: a link spent beside a session is refused (409, naming that session) until the person's click sends the confirmation", async () => {
    const alice = await signIn(portal.app, accounts.alice, portal.code);
    const { uuid } = await sandboxPost(portal.sandboxUrl, "/sandbox/link-login", { site: "vendor", username: "vera" });
    const url = `/api/auth/vendor-token?uuid=${uuid}`;
    const refused = await alice.post(url);
    assert.equal(refused.status, 409);
    assert.deepEqual(refused.json(), {
      detail: "You are signed in as \u2068alice\u2069, \u2068ACME\u2069.",
      code: "session-exists",
    });
    assert.equal((await alice.get("/client/home")).status, 200, "alice's session is untouched");
    const confirmed = await alice.post(url, undefined, { "x-portal-replace-session": "1" });
    assert.deepEqual(
      confirmed.json(),
      { tokenHeld: true, message: "Success" },
      "the link was not spent by the refusal",
    );
  });
});

// Issue 12, B2 (its server part), B3, B4, B5, B6 and B10: what the outside review broke in sign-in and the session,
// each as a test that failed on the code before its fix (docs/security-review.md). The outside review after the
// rebuild: a passed password test is spent once, even by a replayed cookie.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Answer, happyUpstream, sendJson } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { portalOnFake, setCookies } from "#tests/support/portal-on-fake.ts";
import { sectionPaths } from "#tests/support/route-paths.ts";

const MINUTE = 60_000;

describe("breaks of the outside review (issue 12)", () => {
  it("B2: a link sign-in revokes the session it replaces: the previous session's cookie opens nothing any more", async () => {
    const fake = await portalOnFake(happyUpstream());
    try {
      const alice = await signIn(fake.app, accounts.alice, fake.code);
      const kept = alice.copy();
      assert.equal((await kept.get("/client/home")).status, 200, "alice's session works");
      const url = "/api/auth/client-token?uuid=the-attackers-own-link";
      assert.equal((await alice.post(url)).status, 409, "a link beside a session waits for the person's click");
      const link = await fake.app.inject({
        method: "POST",
        url,
        headers: { cookie: alice.cookieHeader, "x-portal-request": "1", "x-portal-replace-session": "1" },
      });
      assert.equal(link.json().tokenHeld, true, "the click's confirmed call signed this browser in");
      assert.equal(
        (await kept.get("/client/home")).headers.location,
        "/?return=%2Fclient%2Fhome",
        "the session the link replaced is revoked: a copy of its cookie opens no page",
      );
      assert.equal(
        (await kept.post("/api/web/client/password/test", { userId: "alice", password: "pw" })).status,
        401,
        "and calls no API",
      );
    } finally {
      await fake.close();
    }
  });

  it("B3: a link sign-in to an account whose password has expired reaches no section page and no PDF, only the change-password form", async () => {
    const happy = happyUpstream();
    const fake = await portalOnFake((call, response) =>
      /^\/auth\/client-token/.test(call.path)
        ? sendJson(response, 200, { token: "expired-link-token", message: "Password Expired", username: "victor" })
        : happy(call, response),
    );
    try {
      const visitor = new PortalClient(fake.app);
      const link = await visitor.post("/api/auth/client-token?uuid=a-link-for-victor");
      assert.equal(link.status, 200);
      for (const path of [...sectionPaths.filter((path) => path.startsWith("/client/")), "/"]) {
        const page = await visitor.get(path);
        assert.equal(page.status, 302, path);
        assert.equal(page.headers.location, "/mfa", `${path}: the expired password is changed first`);
      }
      assert.equal((await visitor.get("/pdfs/BankHolidays.pdf")).status, 401, "no document");
      const form = await visitor.get("/mfa");
      assert.equal(form.status, 200);
      assert.match(form.text, /data-island="change-password"/, "the change-password form waits");
    } finally {
      await fake.close();
    }
  });

  it("B3: a link answer that does not give the account's state opens no section until the permissions call answers for it", async () => {
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

  it("B5: a pending cookie kept past promotion and sign-out cannot validate the remembered code into a new session", async () => {
    const fake = await portalOnFake(happyUpstream());
    try {
      const visitor = new PortalClient(fake.app);
      await visitor.post("/api/auth/client", { shortname: "ACME", username: "alice", password: "pw" });
      const pending = visitor.copy();
      await visitor.post("/api/web/client/mfa/generate");
      assert.deepEqual((await visitor.post("/api/web/client/mfa/validate/424242")).json(), [{ text: "Passed" }]);
      assert.equal((await visitor.post("/session/logout")).status, 303);
      fake.upstream.calls.length = 0;
      // The device memory: the code this device accepted, replayed with the kept pending cookie.
      const replay = await pending.post("/api/web/client/mfa/validate/424242");
      assert.equal(replay.status, 401, "the pending cookie was revoked when it was promoted");
      assert.equal(fake.upstream.callsTo(/mfa\/validate/).length, 0, "the remembered code never reached the upstream");
      assert.equal(
        (await pending.get("/client/home")).headers.location,
        "/?return=%2Fclient%2Fhome",
        "no signed-in session came of it",
      );
    } finally {
      await fake.close();
    }
  });

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

  it("B10: a GET from another site never writes the session: /mfa and /tax-bridge/login set no cookie, and a signed-in session is not switched into tax-bridge mode", async () => {
    const fake = await portalOnFake(happyUpstream());
    try {
      const visitor = await signIn(fake.app, accounts.alice, fake.code);
      const crossSite = { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" };
      for (const url of ["/mfa", "/tax-bridge/login"]) {
        // SameSite=Strict: a navigation from another site carries no cookie, and its answer must not replace one.
        const answer = await fake.app.inject({ url, headers: crossSite });
        assert.ok(answer.statusCode < 400, `${url}: ${answer.statusCode}`);
        assert.deepEqual(setCookies(answer), [], `${url}: a cross-site GET sets no cookie`);
      }
      assert.equal((await visitor.get("/client/home")).status, 200, "the victim is still signed in");
      const switched = await fake.app.inject({
        url: "/tax-bridge/login",
        headers: { ...crossSite, cookie: visitor.cookieHeader },
      });
      assert.deepEqual(setCookies(switched), [], "a signed-in session's cookie is not rewritten by it");
      await visitor.get("/tax-bridge/login");
      assert.equal(
        (await visitor.get("/")).headers.location,
        "/session/landing",
        "a signed-in session stays out of tax-bridge mode, even visiting /tax-bridge/login itself",
      );
    } finally {
      await fake.close();
    }
  });
});

describe("limits that hold under races (outside review)", () => {
  it("B4: a passed password test is spent once, even by a replayed copy of the cookie", async () => {
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

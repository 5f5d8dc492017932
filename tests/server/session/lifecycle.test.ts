// server/session/lifecycle.ts: a new record at each step of signing in (a link sign-in ends the one it replaces),
// sessions timed out and ended, and every way a session ends ends its record in the ledger, once, so a kept copy of
// the cookie opens nothing afterwards; an upstream 401 ends the session (requirements 4.5); MFA and expired passwords
// hold; a held-back body does not outlive its session. That a replayed ended cookie writes nothing: plugin.test.ts.
import assert from "node:assert/strict";
import { connect } from "node:net";
import { describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { happyUpstream, sendJson } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, DEMO_PASSWORD, latestCode, signIn } from "#harness/sign-in.ts";
import { PERMISSIONS_TTL_MS } from "#server/account/permissions.ts";
import { sessionDigest } from "#server/account/security-log.ts";
import { END_SESSIONS_PATH } from "#server/loaders/account-view.ts";
import { UNAVAILABLE } from "#server/stores/ledger.ts";
import { assertStillServing, BOUND_MS, TIMEOUT_MS } from "#tests/support/failing-upstream.ts";
import { type PortalInProcess, startPortalInProcess } from "#tests/support/portal.ts";
import { portalOnFake, setCookies } from "#tests/support/portal-on-fake.ts";
import { sectionPaths } from "#tests/support/route-paths.ts";
import { sessionCodec } from "#tests/support/session-codec.ts";
import { until } from "#tests/support/waiting.ts";
import { errorTexts } from "#web/texts/errors.ts";
import { mfaTexts } from "#web/texts/mfa.ts";

const COOKIE = "__Host-portal-session";
const MINUTE = 60_000;

/** The same cookie, kept aside: what an attacker who copied it would replay. */
function keptCopy(app: FastifyInstance, visitor: PortalClient): PortalClient {
  const copy = new PortalClient(app);
  copy.cookies = new Map(visitor.cookies);
  return copy;
}

const opensHome = async (visitor: PortalClient) => (await visitor.get("/client/home")).status === 200;

/** The session id inside a visitor's cookie, read with the portal's own keys. */
async function sidOf(portal: PortalInProcess, visitor: PortalClient): Promise<string | undefined> {
  const value = visitor.cookies.get(COOKIE);
  return value ? (await sessionCodec(portal.config)).decode(encodeURIComponent(value))?.get("sid") : undefined;
}

/** The events of alice's activity about the session `sid`. */
async function eventsAbout(portal: PortalInProcess, sid: string): Promise<string[]> {
  const { events } = (await portal.app.account?.activity.recent("client/acme/alice")) ?? { events: [] };
  return events.filter(({ session }) => session === sessionDigest(sid)).map(({ event }) => event);
}

describe("session lifecycle (item 7)", () => {
  it("7. lifecycle: a new session, with a new id, begins at each step (anonymous → pending MFA → signed in), so a planted cookie never becomes the signed-in one", async () => {
    const portal = await startPortalInProcess({ listen: false });
    try {
      const visitor = new PortalClient(portal.app);
      // An anonymous cookie of the portal's own (a sign-in page's notice), planted in the browser beforehand.
      const planted = (await sessionCodec(portal.config)).encode({ flash: { ended: "idle" } });
      visitor.cookies.set(COOKIE, decodeURIComponent(planted));
      const anonymous = visitor.copy();
      await visitor.post("/api/auth/client", { shortname: "ACME", username: "alice", password: DEMO_PASSWORD });
      const pendingSid = await sidOf(portal, visitor);
      const pending = visitor.copy();
      await visitor.post("/api/web/client/mfa/generate");
      const code = await latestCode(portal.sandboxUrl, accounts.alice.email);
      await visitor.post(`/api/web/client/mfa/validate/${code}`);
      const signedInSid = await sidOf(portal, visitor);
      assert.ok(pendingSid && signedInSid, "both steps carry an id");
      assert.notEqual(pendingSid, signedInSid, "the signed-in session is a new one");
      assert.equal((await visitor.get("/client/submission/report")).status, 200);
      assert.equal(
        (await anonymous.get("/client/home")).headers.location,
        "/?return=%2Fclient%2Fhome",
        "the planted cookie is still anonymous",
      );
      assert.equal(
        (await pending.get("/client/home")).headers.location,
        "/?return=%2Fclient%2Fhome",
        "the pending record ended at promotion",
      );
    } finally {
      await portal.close();
    }
  });

  it("7. lifecycle: the idle timeout (SESSION_IDLE_MINUTES) ends a session left alone, by the app's clock", async () => {
    let clock = Date.now();
    const portal = await startPortalInProcess({ env: { SESSION_IDLE_MINUTES: "30" }, now: () => clock, listen: false });
    try {
      const visitor = await signIn(portal.app, accounts.alice, portal.code);
      clock += 29 * MINUTE;
      assert.equal((await visitor.get("/client/home")).status, 200, "29 minutes idle: still signed in");
      clock += 29 * MINUTE;
      assert.equal((await visitor.get("/client/home")).status, 200, "each request restarts the idle time");
      clock += 31 * MINUTE;
      const late = await visitor.get("/client/home");
      assert.equal(late.status, 302);
      assert.equal(late.headers.location, "/?return=%2Fclient%2Fhome");
      assert.match((await visitor.get("/")).text, new RegExp(errorTexts.sessionExpired));
    } finally {
      await portal.close();
    }
  });

  it("7. lifecycle: the absolute lifetime (SESSION_MAX_HOURS) ends even a busy session", async () => {
    let clock = Date.now();
    const portal = await startPortalInProcess({
      env: { SESSION_IDLE_MINUTES: "30", SESSION_MAX_HOURS: "1" },
      now: () => clock,
      listen: false,
    });
    try {
      const visitor = await signIn(portal.app, accounts.alice, portal.code);
      for (let minutes = 20; minutes < 60; minutes += 20) {
        clock += 20 * MINUTE;
        assert.equal((await visitor.get("/client/home")).status, 200, `${minutes} minutes in, busy`);
      }
      clock += 21 * MINUTE;
      const late = await visitor.get("/client/home");
      assert.equal(late.headers.location, "/?return=%2Fclient%2Fhome", "61 minutes after sign-in: over");
      assert.match((await visitor.get("/")).text, new RegExp(errorTexts.sessionExpired));
    } finally {
      await portal.close();
    }
  });

  it("7. lifecycle: sign out expires the session cookie by name and keeps the device cookie; an old copy of the cookie no longer works", async () => {
    const portal = await startPortalInProcess({ listen: false });
    try {
      const visitor = await signIn(portal.app, accounts.alice, portal.code);
      const stolen = visitor.copy();
      const sid = (await sidOf(portal, visitor)) ?? "";
      const out = await visitor.post("/session/logout");
      assert.equal(out.status, 303);
      assert.match(String(out.headers.location), /^\/(\?|$)/, "back to the login page");
      assert.equal(out.headers["clear-site-data"], '"cache"', "the cache only: no other cookie is deleted");
      const expired = setCookies(out).find((cookie) => cookie.startsWith(`${COOKIE}=`));
      assert.match(String(expired), /^__Host-portal-session=;.*Expires=Thu, 01 Jan 1970/i, "expired by name");
      assert.ok(!setCookies(out).some((cookie) => cookie.includes("portal-device")), "the device cookie stays");
      assert.ok(visitor.cookies.has("__Host-portal-device"), "the browser still holds it");
      assert.equal(visitor.cookies.get(COOKIE), undefined, "the browser keeps no session cookie");
      const record = await portal.app.ledger.read(sid);
      assert.ok(record && record !== UNAVAILABLE, "the ledger still holds the ended record");
      assert.equal(record.ended?.reason, "signed-out", "the record ended, as a sign-out");
      assert.equal(record.auth.token, "", "and keeps no token");
      assert.equal(
        (await stolen.get("/client/home")).headers.location,
        "/?return=%2Fclient%2Fhome",
        "the old copy opens no page",
      );
      const api = await stolen.post("/api/web/client/password/test", { userId: "alice", password: DEMO_PASSWORD });
      assert.equal(api.status, 401, "the old copy calls no API");
      assert.equal((await stolen.get("/pdfs/BankHolidays.pdf")).status, 401, "nor reads a document");
    } finally {
      await portal.close();
    }
  });
});

describe("MFA cannot be skipped (item 8)", () => {
  it("8. MFA: with a pending token, every section page gives the MFA step and every other API call 401, with no upstream call", async () => {
    const fake = await portalOnFake(happyUpstream());
    try {
      const visitor = new PortalClient(fake.app);
      await visitor.post("/api/auth/client", { shortname: "ACME", username: "alice", password: "pw" });
      fake.upstream.calls.length = 0;
      for (const path of sectionPaths) {
        const page = await visitor.get(path);
        assert.equal(page.status, 302, path);
        assert.equal(page.headers.location, "/mfa", path);
      }
      const mfa = await visitor.get("/mfa");
      assert.equal(mfa.status, 200);
      assert.match(mfa.text, /data-island="mfa"/, "the MFA step itself opens");
      assert.equal((await visitor.get("/pdfs/BankHolidays.pdf")).status, 401, "no document");
      const others: [string, unknown][] = [
        ["/api/web/client/password/test", { userId: "alice", password: "pw" }],
        ["/api/web/client/password/change", { password: "Strong-Password-2026!" }],
        ["/api/web/vendor/password/change", { password: "Strong-Password-2026!" }],
      ];
      for (const [path, body] of others) {
        const answer = await visitor.copy().post(path, body);
        assert.equal(answer.status, 401, path);
      }
      // Nothing is awaited: visits leave after their answers, so a moment is given for one that should not come.
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.deepEqual(
        fake.upstream.calls.map((call) => call.path),
        [],
        "nothing reached the upstream: no page visit, no permissions, no password call",
      );
      assert.equal((await visitor.post("/api/web/client/mfa/generate")).status, 200, "the MFA calls do work");
    } finally {
      await fake.close();
    }
  });

  it("8. MFA: wrong codes are limited per pending session; each refusal says how many attempts are left, and at the limit the sign-in ends and says why", async () => {
    const fake = await portalOnFake(happyUpstream({ verdict: "Failed" }), { env: { MFA_MAX_WRONG_CODES: "3" } });
    try {
      const visitor = new PortalClient(fake.app);
      await visitor.post("/api/auth/client", { shortname: "ACME", username: "alice", password: "pw" });
      for (let attempt = 1; attempt <= 3; attempt++) {
        const answer = await visitor.post(`/api/web/client/mfa/validate/00000${attempt}`);
        assert.deepEqual(answer.json(), [{ text: "Failed", attemptsLeft: 3 - attempt }], `attempt ${attempt}`);
      }
      const fourth = await visitor.post("/api/web/client/mfa/validate/000004");
      assert.equal(fourth.status, 401);
      assert.deepEqual(
        fourth.json(),
        { detail: errorTexts.sessionExpired, code: "mfa-attempts-exhausted" },
        "the island can tell this end from an expired session",
      );
      assert.equal(fake.upstream.callsTo(/mfa\/validate/).length, 3, "the fourth code never reached the upstream");
      assert.ok(
        (await visitor.get("/")).text.includes(mfaTexts.attemptsExhausted),
        "the sign-in page says why it ended",
      );
    } finally {
      await fake.close();
    }
  });

  it("8. MFA: replaying an older copy of the pending cookie does not reset the wrong-code count", async () => {
    const fake = await portalOnFake(happyUpstream({ verdict: "Failed" }), { env: { MFA_MAX_WRONG_CODES: "3" } });
    try {
      const visitor = new PortalClient(fake.app);
      await visitor.post("/api/auth/client", { shortname: "ACME", username: "alice", password: "pw" });
      for (let attempt = 1; attempt <= 6; attempt++)
        await visitor.copy().post(`/api/web/client/mfa/validate/10000${attempt}`);
      assert.equal(
        fake.upstream.callsTo(/mfa\/validate/).length,
        3,
        "three codes in all, however the cookie is replayed",
      );
      assert.equal((await visitor.copy().post("/api/web/client/mfa/generate")).status, 401);
    } finally {
      await fake.close();
    }
  });
});

describe("expired password (item 10)", () => {
  it("10. expired password: while Password Expired, nothing but the change-password form is reachable", async () => {
    const fake = await portalOnFake(happyUpstream({ message: "Password Expired" }));
    try {
      const visitor = await signIn(fake.app, accounts.alice, fake.code);
      fake.upstream.calls.length = 0;
      for (const path of [...sectionPaths, "/"]) {
        const page = await visitor.get(path);
        assert.equal(page.status, 302, path);
        assert.equal(page.headers.location, "/mfa", path);
      }
      const form = await visitor.get("/mfa");
      assert.equal(form.status, 200);
      assert.match(form.text, /data-island="change-password"/);
      assert.equal((await visitor.get("/pdfs/BankHolidays.pdf")).status, 401, "no document");
      for (const path of ["/api/web/client/mfa/generate", "/api/web/client/mfa/validate/123456"])
        assert.equal((await visitor.copy().post(path)).status, 401, path);
      await until(() => fake.upstream.watched.track.answered >= 1, 5_000, "the visit record");
      assert.deepEqual(
        fake.upstream.calls.map((call) => `${call.method} ${call.path} ${call.body}`),
        ['POST /web/track {"page":"/mfa"}'],
        "nothing reaches the upstream but the visit record of the change-password form (requirements 4.8)",
      );
      assert.equal(
        (await visitor.post("/api/web/client/password/test", { userId: "alice", password: "pw" })).status,
        200,
      );
      const change = await visitor.post("/api/web/client/password/change", { password: "Brand-New-Pass-2026!" });
      assert.equal(change.status, 200);
      assert.equal((await visitor.get("/client/home")).status, 200, "once changed, the section opens");
    } finally {
      await fake.close();
    }
  });
});

describe("limits that hold under races", () => {
  it("7. lifecycle: a request that holds its body back until after sign-out is refused when the body arrives", async () => {
    const fake = await portalOnFake(happyUpstream(), { listen: true });
    try {
      const visitor = await signIn(fake.app, accounts.alice, fake.code);
      const { port } = new URL(fake.url);
      const body = JSON.stringify({ userId: "alice", password: "pw" });
      const socket = connect(Number(port), "127.0.0.1");
      await new Promise((resolve) => socket.once("connect", resolve));
      socket.write(
        [
          "POST /api/web/client/password/test HTTP/1.1",
          `Host: 127.0.0.1:${port}`,
          "Content-Type: application/json",
          `Content-Length: ${body.length}`,
          "X-Portal-Request: 1",
          `Origin: http://127.0.0.1:${port}`,
          `Cookie: ${visitor.cookieHeader}`,
          "",
          "",
        ].join("\r\n"),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      const kept = new PortalClient(fake.app);
      kept.cookies = new Map(visitor.cookies);
      await visitor.post("/session/logout");
      const answered = new Promise<string>((resolve) => {
        let text = "";
        socket.on("data", (chunk) => {
          text += chunk.toString();
          if (text.includes("\r\n\r\n")) resolve(text);
        });
      });
      socket.write(body);
      const head = await answered;
      socket.destroy();
      assert.match(head, /^HTTP\/1\.1 401/, "the signed-out session's held-back call is refused");
      assert.equal(fake.upstream.callsTo(/password\/test/).length, 0, "nothing reached the upstream");
    } finally {
      await fake.close();
    }
  });
});

describe("a link sign-in beside a session", () => {
  it("B2: a link sign-in ends the session it replaces: the previous session's cookie opens nothing any more", async () => {
    const fake = await portalOnFake(happyUpstream());
    try {
      const alice = await signIn(fake.app, accounts.alice, fake.code);
      const kept = alice.copy();
      assert.equal((await kept.get("/client/home")).status, 200, "alice's session works");
      const url = "/api/auth/client-token?uuid=the-attackers-own-link";
      assert.equal((await alice.post(url)).status, 409, "a link beside a session waits for the person's click");
      const link = await alice.post(url, undefined, { "x-portal-replace-session": "1" });
      assert.equal(link.json().tokenHeld, true, "the click's confirmed call signed this browser in");
      assert.equal(
        (await kept.get("/client/home")).headers.location,
        "/?return=%2Fclient%2Fhome",
        "the session the link replaced ended: a copy of its cookie opens no page",
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
});

describe("a link sign-in to an account whose password expired", () => {
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
});

describe("the pending session and its code", () => {
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
      assert.equal(replay.status, 401, "the pending record ended when it was promoted");
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
});

describe("every end of a session ends its record", () => {
  /** Each way a signed-in session can end, and what ends it. */
  const ends: [string, (visitor: PortalClient) => Promise<unknown>][] = [
    ["sign-out", (visitor) => visitor.post("/session/logout")],
    [
      "a new password sign-in",
      (visitor) => visitor.post("/api/auth/client", { shortname: "ACME", username: "bob", password: "pw" }),
    ],
    [
      "a link sign-in, once confirmed",
      (visitor) =>
        visitor.post("/api/auth/client-token?uuid=11111111-1111-4111-8111-111111111111", undefined, {
          "x-portal-replace-session": "1",
        }),
    ],
  ];
  for (const [what, end] of ends) {
    it(`11. ${what} ends the session it ends: a kept copy of its cookie opens nothing`, async () => {
      const fake = await portalOnFake(happyUpstream());
      try {
        const visitor = await signIn(fake.app, accounts.alice, fake.code);
        const kept = keptCopy(fake.app, visitor);
        assert.ok(await opensHome(kept), "the copy works while the session lives");
        await end(visitor);
        assert.equal(await opensHome(kept), false, `after ${what}, the kept copy is refused`);
      } finally {
        await fake.close();
      }
    });
  }

  it("11. an upstream 401 on an /api call ends the session: a kept copy of its cookie opens nothing", async () => {
    let refuse = false;
    const happy = happyUpstream();
    const fake = await portalOnFake((call, response) => {
      if (refuse && call.path.includes("/password/test")) {
        response.writeHead(401, { "content-type": "application/json" }).end("{}");
        return;
      }
      return happy(call, response);
    });
    try {
      const visitor = await signIn(fake.app, accounts.alice, fake.code);
      const kept = keptCopy(fake.app, visitor);
      refuse = true;
      const answer = await visitor.post("/api/web/client/password/test", { userId: "alice", password: "pw" });
      assert.equal(answer.status, 401);
      assert.equal(await opensHome(kept), false, "the kept copy is refused");
    } finally {
      await fake.close();
    }
  });
});

describe("an upstream 401 ends the session (requirements 4.5)", () => {
  it("on the server's own call: the session ends with its event, and a later sign-in the upstream issues the same token opens normally", async () => {
    let refuse = false;
    let clock = Date.now();
    const happy = happyUpstream();
    const fake = await portalOnFake(
      (call, response) => {
        if (refuse && call.method === "GET" && call.path.includes("/user-info")) return sendJson(response, 401, {});
        return happy(call, response);
      },
      { now: () => clock },
    );
    try {
      const first = await signIn(fake.app, accounts.alice, fake.code);
      const sid = (await sidOf(fake.portal, first)) ?? "";
      refuse = true;
      clock += PERMISSIONS_TTL_MS + 1; // a gated page asks for the permissions again, with the session's token
      const page = await first.get("/client/vip/dashboard");
      assert.deepEqual([page.status, page.headers.location], [302, "/"], "the page sends the person to sign in");
      assert.equal((await first.get("/client/home")).status, 302, "the refused session has ended");
      assert.match((await first.get("/")).text, new RegExp(errorTexts.sessionExpired), "and the sign-in page says so");
      await until(async () => (await eventsAbout(fake.portal, sid)).includes("session-ended.upstream-refused"));
      refuse = false;
      const again = await signIn(fake.app, accounts.alice, fake.code);
      assert.equal((await again.get("/client/home")).status, 200, "the token issued again is not still refused");
    } finally {
      await fake.close();
    }
  });

  it("14. faults: a storm of parallel 401s is one clean expiry: every call 401, the session ends once, later calls never reach the upstream", async () => {
    const fake = await portalOnFake(happyUpstream(), { env: { UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS) } });
    try {
      const visitor = await signIn(fake.app, accounts.alice, fake.code);
      const sid = (await sidOf(fake.portal, visitor)) ?? "";
      fake.upstream.answer = (_call, response) =>
        void setTimeout(() => sendJson(response, 401, { detail: "Unauthorized" }), 30);
      fake.upstream.calls.length = 0;
      const tabs = Array.from({ length: 20 }, () => visitor.copy());
      const started = performance.now();
      const answers = await Promise.all(
        tabs.map((tab) => tab.post("/api/web/client/password/test", { userId: "alice", password: "pw" })),
      );
      assert.ok(performance.now() - started < BOUND_MS * 2, "the storm was answered in bounded time");
      for (const answer of answers) {
        assert.equal(answer.status, 401);
        assert.deepEqual(answer.json(), { detail: errorTexts.sessionExpired });
      }
      assert.ok(fake.upstream.calls.length <= 20, "one upstream call per browser call at most, never retried");
      const inFlight = fake.upstream.calls.length;
      for (const late of [visitor.copy(), visitor.copy()]) {
        const call = await late.post("/api/web/client/password/test", { userId: "alice", password: "pw" });
        assert.equal(call.status, 401);
        assert.equal((await late.get("/client/home")).headers.location, "/?return=%2Fclient%2Fhome");
      }
      assert.equal(fake.upstream.calls.length, inFlight, "an old copy of the cookie reaches the upstream no more");
      const refusals = async () =>
        (await eventsAbout(fake.portal, sid)).filter((event) => event === "session-ended.upstream-refused");
      await until(async () => (await refusals()).length > 0);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal((await refusals()).length, 1, "twenty refusals, one ending in the owner's activity");
      const browser = tabs.at(-1) ?? visitor;
      const login = await browser.get("/");
      assert.match(login.text, new RegExp(errorTexts.sessionExpired), "the login page says the session expired");
      assert.doesNotMatch((await browser.get("/")).text, new RegExp(errorTexts.sessionExpired), "and not again");
      await assertStillServing(fake);
    } finally {
      await fake.close();
    }
  });
});

describe("a session ended twice at once", () => {
  it("ends once: its own sign-out and another device's 'Sign out of all other devices' together write one ending", async () => {
    const portal = await startPortalInProcess({ listen: false });
    try {
      const here = await signIn(portal.app, accounts.alice, portal.code);
      const there = await signIn(portal.app, accounts.alice, portal.code);
      const sid = (await sidOf(portal, here)) ?? "";
      const form = new URLSearchParams({ session: "all", password: DEMO_PASSWORD, return: "/client/home" });
      const [out, others] = await Promise.all([
        here.post("/session/logout"),
        new PortalClient(portal.app, { islandsHeader: false }).post(END_SESSIONS_PATH, form, {
          cookie: there.cookieHeader,
        }),
      ]);
      assert.deepEqual([out.status, others.status], [303, 303]);
      const endings = ["sign-out", "session-ended.by-person"];
      await until(async () => (await eventsAbout(portal, sid)).some((event) => endings.includes(event)));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const ended = (await eventsAbout(portal, sid)).filter((event) => endings.includes(event));
      assert.equal(ended.length, 1, `one ending, by whoever ended it first: ${ended.join(", ")}`);
      const record = await portal.app.ledger.read(sid);
      assert.ok(record && record !== UNAVAILABLE && record.ended, "the record ended");
      assert.equal(ended[0], record.ended.reason === "signed-out" ? "sign-out" : "session-ended.by-person");
    } finally {
      await portal.close();
    }
  });
});

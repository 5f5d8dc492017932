// server/session/cookie-size.ts: a session within what a browser keeps of one cookie, or a clear refusal (SECURITY.md
// item 2), decided where the session grows, before the answer is made.
import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { describe, it } from "node:test";
import fc from "fast-check";
import { fullPermissions, happyUpstream, jwtLikeToken } from "#harness/fake-upstream.ts";
import { type PortalAnswer, PortalClient } from "#harness/portal-client.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { forGates, PERMISSIONS_TTL_MS } from "#server/permissions.ts";
import { leavesRoom, MAX_SEALED_SESSION } from "#server/session/cookie-size.ts";
import { portalOnFake, setCookies } from "#tests/support/portal-on-fake.ts";
import { startSessionApp } from "#tests/support/session-app.ts";
import { sessionCodec } from "#tests/support/session-codec.ts";
import { answerMessage } from "#web/api/answer.ts";
import { gatedServices, gates } from "#web/gates.ts";
import type { UserInfo } from "#web/site.ts";

const COOKIE = "__Host-portal-session";
const BROWSER_COOKIE_LIMIT = 4096;

describe("cookie size (item 2)", () => {
  it("2. cookie size: a 4 KB JWT-like token and a full permission set still fit a cookie of at most 4096 bytes, and the session works", async (t) => {
    const token = jwtLikeToken(4096);
    const fake = await portalOnFake(happyUpstream({ token }));
    try {
      const visitor = await signIn(fake.app, accounts.alice, fake.code);
      const answers = [...visitor.answers];
      const pages = [await visitor.get("/client/home"), await visitor.get(`/client/${"x".repeat(6000)}`)];
      const sizes = [...answers, ...pages].flatMap((answer) => setCookies(answer).map((c) => Buffer.byteLength(c)));
      t.diagnostic(`token ${token.length} characters; Set-Cookie sizes ${sizes.join(", ")} bytes`);
      assert.ok(sizes.length >= 3, "the session was written at each step");
      for (const size of sizes) assert.ok(size <= BROWSER_COOKIE_LIMIT, `Set-Cookie of ${size} bytes`);
      const home = await visitor.get("/client/vip/dashboard");
      assert.equal(home.status, 200, "signed in, permissions kept: a VIP page opens");
      await visitor.post("/api/web/client/password/test", { userId: "alice", password: "pw" });
      const bearers = fake.upstream.calls.map((call) => call.headers.authorization).filter(Boolean);
      assert.ok(bearers.length >= 3, "generate, validate, user-info and the test call carry the token");
      for (const bearer of bearers) assert.equal(bearer, `Bearer ${token}`, "the token comes back whole");
    } finally {
      await fake.close();
    }
  });

  it("2. cookie size: the permissions the session keeps give every gate the same answer as the upstream's full set", async () => {
    // The codes the gates may read (web/gates.ts: a gate can name no other), so a gate added with a new code is
    // exercised too.
    const gateCodes = [...gatedServices.clientServices, ...gatedServices.beneServices];
    const code = fc.oneof(fc.constantFrom(...gateCodes), fc.stringMatching(/^\d{1,6}$/));
    const tier = fc.oneof(
      fc.boolean(),
      fc.integer(),
      fc.string(),
      fc.stringMatching(/^-?\d{0,20}$/),
      fc.constant(null),
    );
    const numeric = fc.oneof(fc.string(), fc.stringMatching(/^ ?-?\d{0,30}(\.\d{0,3})? ?$/));
    const info = fc.record({
      loaded: fc.constant(true),
      viewOnly: fc.boolean(),
      isAdmin: fc.boolean(),
      clientServices: fc.array(code, { maxLength: 40 }),
      beneServices: fc.array(code, { maxLength: 20 }),
      paymentTier: tier,
      spotTier: tier,
      vipTier: numeric,
      userTier: numeric,
    }) satisfies fc.Arbitrary<UserInfo>;
    fc.assert(
      fc.property(info, (full) => {
        const kept = forGates(full);
        for (const [name, gate] of Object.entries(gates)) assert.equal(gate(kept), gate(full), name);
        assert.ok(JSON.stringify(kept).length <= 400, "the kept set is small whatever the upstream sends");
      }),
      { numRuns: 2000 },
    );
  });

  it("2. cookie size: whatever the token's size, every cookie of a session stays within 4096 bytes, or the sign-in is refused with a clear error", async (t) => {
    const outcomes: string[] = [];
    // One portal; its upstream issues a longer token for each length.
    const fake = await portalOnFake();
    try {
      for (let length = 3_900; length <= 5_200; length += 100) {
        const token = jwtLikeToken(length);
        fake.upstream.answer = happyUpstream({ token });
        const visitor = new PortalClient(fake.app);
        const answers = [
          await visitor.post("/api/auth/client", { shortname: "ACME", username: "alice", password: "pw" }),
          await visitor.post("/api/web/client/mfa/generate"),
          await visitor.post("/api/web/client/mfa/validate/123456"),
          // What a signed-in session adds to its cookie: the longest path it keeps whole, a passed password test.
          await visitor.get(`/client/${"x".repeat(56)}`),
          await visitor.post("/api/web/client/password/test", { userId: "alice", password: "pw" }),
          await visitor.get("/client/home"),
        ];
        for (const answer of answers)
          for (const cookie of setCookies(answer))
            assert.ok(
              Buffer.byteLength(cookie) <= BROWSER_COOKIE_LIMIT,
              `a ${token.length}-character token: a Set-Cookie of ${Buffer.byteLength(cookie)} bytes`,
            );
        const steps = ["sign-in", "generate", "MFA", "a page", "the password test", "a page"];
        const refused = answers.findIndex((answer) => answer.status === 502);
        if (refused >= 0) {
          const answer = answers[refused] as PortalAnswer;
          assert.match(answerMessage(answer.status, answer.json()), /too large/i, `${token.length}: the message`);
          assert.ok(
            refused === 0 || refused === 2,
            `${token.length}: refused at sign-in or MFA, not at ${steps[refused]}`,
          );
          assert.equal(
            (await visitor.get("/client/home")).headers.location,
            "/?return=%2Fclient%2Fhome",
            `${token.length}: no session is left`,
          );
          outcomes.push(`${token.length} refused at ${steps[refused]}`);
        } else {
          assert.equal((await visitor.get("/client/home")).status, 200, `${token.length}: signed in`);
          outcomes.push(`${token.length} fits`);
        }
      }
    } finally {
      await fake.close();
    }
    t.diagnostic(outcomes.join("; "));
  });

  it("2. cookie size: a session that grows past what a browser keeps ends with the clear message, never a cookie over 4096 bytes", async () => {
    const fake = await portalOnFake(happyUpstream());
    try {
      const now = Date.now();
      const stale = now - PERMISSIONS_TTL_MS - 1;
      const codec = await sessionCodec(fake.portal.config);
      const cookieOf = (length: number) =>
        codec.encode({
          auth: {
            stage: "signed-in",
            site: "client",
            userName: "alice",
            loginMessage: "Success",
            token: "t".repeat(length),
          },
          perms: { info: forGates({ loaded: true, ...fullPermissions, clientServices: [] }), at: stale },
          sid: randomUUID(),
          born: now,
          seen: now,
        });
      // The largest session a browser still keeps, its permissions due a refresh: a gated page fetches them again,
      // and the upstream's bring more than the session held.
      let [length, over] = [0, 4_096];
      while (over - length > 1) {
        const middle = Math.floor((length + over) / 2);
        if (cookieOf(middle).length <= MAX_SEALED_SESSION) length = middle;
        else over = middle;
      }
      const cookie = `${COOKIE}=${cookieOf(length)}`;
      // The cookie as sealed, not as the jar would encode it: its size is what is tested. The person's own requests.
      const browser = new PortalClient(fake.app, { islandsHeader: false });
      browser.headers = { "sec-fetch-site": "same-origin" };
      const idle = await browser.get("/session/idle?return=%2Fclient%2Fhome", { cookie });
      assert.equal(
        idle.headers.location,
        "/client/home?by-itself",
        "the session works (a request that writes nothing)",
      );
      const page = await browser.get("/client/invoice/entry", { cookie });
      for (const written of setCookies(page))
        assert.ok(Buffer.byteLength(written) <= BROWSER_COOKIE_LIMIT, `a Set-Cookie of ${Buffer.byteLength(written)}`);
      // Decided as the permissions came, before the page was made: the page route itself sends the person on.
      assert.deepEqual([page.status, page.headers.location], [302, "/"], "the grown session is not written");
      const visitor = new PortalClient(fake.app);
      for (const written of page.cookies) visitor.cookies.set(written.name, written.value);
      assert.match((await visitor.get("/")).text, /too large/, "the sign-in page says why");
      assert.equal(
        (await browser.get("/client/home", { cookie })).headers.location,
        "/?return=%2Fclient%2Fhome",
        "the session ended: its id is revoked",
      );
      await fake.portal.close(); // sends every visit still queued
      assert.deepEqual(fake.upstream.callsTo(/\/web\/track$/), [], "a page never shown is no visit");
    } finally {
      await fake.close();
    }
  });

  it("2. cookie size: a token too large for any cookie gives a clear error and no broken session", async () => {
    const token = randomBytes(6000).toString("base64url");
    const fake = await portalOnFake(happyUpstream({ token }));
    try {
      const visitor = new PortalClient(fake.app);
      const login = await visitor.post("/api/auth/client", { shortname: "ACME", username: "alice", password: "pw" });
      for (const cookie of setCookies(login))
        assert.ok(Buffer.byteLength(cookie) <= BROWSER_COOKIE_LIMIT, `Set-Cookie of ${Buffer.byteLength(cookie)}`);
      assert.ok(login.status >= 400, `an error status, not ${login.status}`);
      const message = answerMessage(login.status, login.json());
      assert.match(message, /too large/i, `a clear message: ${message}`);
      assert.equal((await visitor.post("/api/web/client/mfa/generate")).status, 401, "no pending sign-in is left");
      assert.equal((await visitor.get("/mfa")).headers.location, "/", "the MFA step is not half open");
      const page = await visitor.get("/");
      assert.equal(page.status, 200, "the login page still opens");
    } finally {
      await fake.close();
    }
  });
});

describe("room for a form's answer", () => {
  it("is what is left once the session's own room is kept: a session near the limit has none, and nothing ends", async (t) => {
    const session = await startSessionApp();
    t.after(() => session.close());
    session.seed({ born: 1, flash: { error: "x".repeat(100) } });
    assert.equal((await session.run((r) => leavesRoom(r))).result, true);
    session.seed({ born: 1, flash: { error: "x".repeat(MAX_SEALED_SESSION * 0.75 - 100) } });
    const full = await session.run((r) => leavesRoom(r));
    assert.deepEqual([full.result, full.written], [false, false], "no room, and the session is left as it was");
  });
});

// server/routes/session.ts: sign-out ends everything the browser held for the person, tax-bridge mode included (on a
// shared browser the next person starts afresh), and cancelling a sign-in goes back to the page it began on. "Stay signed in"
// restarts the idle time, and at the limit the page asks /session/idle (the delays a page carries are
// server/render/page-reply.ts's), which is no activity: an ended session lands on the sign-in page saying why.
// Where a sign-in lands: the page first asked for when the user's gate opens it, else the mode's landing, else home.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { happyUpstream } from "#harness/fake-upstream.ts";
import { type PortalAnswer, PortalClient } from "#harness/portal-client.ts";
import { accounts, DEMO_PASSWORD, signIn, signInAtTaxBridge } from "#harness/sign-in.ts";
import { clockedPortal, IDLE_MINUTES, MINUTE } from "#tests/support/clocked-portal.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";
import { portalOnFake } from "#tests/support/portal-on-fake.ts";
import { TAX_BRIDGE_HEADER } from "#web/protocol/headers.ts";
import { errorTexts } from "#web/texts/errors.ts";
import { loginNotices } from "#web/texts/login-notices.ts";
import { loginTexts } from "#web/texts/login-screen.ts";

let portal: RunningPortal;
describe("server/routes/session", () => {
  before(async () => {
    portal = await startPortalInProcess({ listen: false });
  });
  after(() => portal.close());

  const landing = async (visitor: PortalClient) => (await visitor.get("/session/landing")).headers.location;
  /** The session a client's signed-in page was shown for, as the page carries it for its script (read by a copy). */
  const pageSession = async (visitor: PortalClient) =>
    /data-session="([\w-]{22})"/.exec((await visitor.copy().get("/client/home")).text)?.[1];

  describe("tax-bridge mode belongs to one sign-in", () => {
    it("a sign-in made at /tax-bridge/login is in the mode; sign-out ends it, and the next person lands on home", async () => {
      const browser = await signInAtTaxBridge(portal.app, accounts.vera, portal.code);
      assert.equal(await landing(browser), "/vendor/invoice/due", "the mode was on");
      const out = await browser.post("/session/logout");
      assert.equal(out.status, 303);
      await signIn(browser, accounts.vera, portal.code);
      assert.equal(await landing(browser), "/vendor/home", "the next sign-in is not in tax-bridge mode");
    });

    it("visiting /tax-bridge/login writes nothing: a sign-in then made at the plain page is not in the mode", async () => {
      const browser = new PortalClient(portal.app);
      const visit = await browser.get("/tax-bridge/login");
      assert.equal(visit.status, 200);
      assert.deepEqual(visit.cookies, [], "no cookie for a visit");
      assert.match(visit.text, /Tax-bridge sign-in: clients go on to Submission Report, vendors to Invoices Due\./);
      assert.doesNotMatch((await browser.get("/")).text, /Tax-bridge sign-in/, "the plain page says nothing of it");
      await signIn(browser, accounts.vera, portal.code);
      assert.equal(await landing(browser), "/vendor/home", "an abandoned tax-bridge page leaks into no sign-in");
    });

    it("ends with the session, whatever ended it: an idle expiry leaves the next sign-in out of the mode", async () => {
      const vera = await signInAtTaxBridge(clocked.portal.app, accounts.vera, clocked.portal.code);
      assert.equal(await landing(vera), "/vendor/invoice/due");
      clocked.now += (IDLE_MINUTES + 1) * MINUTE;
      assert.equal((await vera.get("/vendor/home")).status, 302, "the session ended");
      await signIn(vera, accounts.vera, clocked.portal.code);
      assert.equal(await landing(vera), "/vendor/home");
    });

    it("cancelling a sign-in at its MFA step goes back to the page it began on, where it may begin in the mode again", async () => {
      const browser = new PortalClient(portal.app);
      await browser.post(
        "/api/auth/vendor",
        { username: "vera", password: DEMO_PASSWORD },
        { [TAX_BRIDGE_HEADER]: "1" },
      );
      const cancel = await browser.post("/session/logout", { intent: "use-another-account" });
      assert.equal(cancel.status, 303);
      assert.equal(cancel.headers.location, "/tax-bridge/login?activeSite=VENDOR");
      assert.deepEqual((await browser.post("/api/auth/vendor", { username: "vera", password: DEMO_PASSWORD })).json(), {
        message: "Success",
        tokenHeld: true,
      });
      const plain = await browser.post("/session/logout", { intent: "use-another-account" });
      assert.equal(plain.headers.location, "/?activeSite=VENDOR");
    });
  });

  const clocked = clockedPortal();

  describe("the idle-timeout warning", () => {
    it("'Stay signed in' restarts the idle time and comes back to the page", async () => {
      const alice = await signIn(clocked.portal.app, accounts.alice, clocked.portal.code);
      clocked.now += (IDLE_MINUTES - 1) * MINUTE;
      const stay = await alice.post("/session/stay", { return: "/client/inbox" });
      assert.equal(stay.status, 303);
      assert.equal(stay.headers.location, "/client/inbox");
      clocked.now += (IDLE_MINUTES - 1) * MINUTE;
      assert.equal((await alice.get("/client/inbox")).status, 200, "still signed in 58 minutes after sign-in");
    });

    it("'Stay signed in' comes back only to a path of this site", async () => {
      const alice = await signIn(clocked.portal.app, accounts.alice, clocked.portal.code);
      for (const target of ["//evil.example/x", "https://evil.example/", "/..//evil.example"]) {
        const stay = await alice.post("/session/stay", { return: target });
        assert.equal(stay.headers.location, "/client/home", target);
      }
    });

    it("the check at the limit is no activity: it returns to a live page, but does not keep the session alive", async () => {
      const alice = await signIn(clocked.portal.app, accounts.alice, clocked.portal.code);
      clocked.now += (IDLE_MINUTES - 5) * MINUTE;
      const early = await alice.get("/session/idle?return=%2Fclient%2Fhome");
      assert.equal(early.status, 303);
      assert.equal(
        early.headers.location,
        "/client/home?by-itself",
        "another tab kept the session alive: back to the page, a load the browser makes by itself",
      );
      clocked.now += 6 * MINUTE;
      const ended = await alice.get("/session/idle?return=%2Fclient%2Fhome");
      assert.equal(
        ended.headers.location,
        "/?return=%2Fclient%2Fhome",
        "idle for 31 minutes: signed out, to sign in again and come back here",
      );
      const login = await alice.get("/");
      assert.ok(login.text.includes(errorTexts.sessionExpired), "the requirements' session-expired message");
      assert.ok(login.text.includes(loginTexts.endedIdle(IDLE_MINUTES)), "and why it ended");
    });

    it("asked by the warning's script, 'Stay signed in' restarts the idle time and answers the seconds left, without moving the page", async () => {
      const alice = await signIn(clocked.portal.app, accounts.alice, clocked.portal.code);
      const json = { accept: "application/json" };
      clocked.now += (IDLE_MINUTES - 1) * MINUTE;
      const stay = await alice.post("/session/stay", { return: "/client/inbox" }, json);
      assert.equal(stay.status, 200);
      assert.deepEqual(JSON.parse(stay.text), { idleSeconds: IDLE_MINUTES * 60, session: await pageSession(alice) });
      assert.equal(stay.headers["cache-control"], "no-store");
      clocked.now += (IDLE_MINUTES - 1) * MINUTE;
      assert.equal((await alice.get("/client/inbox")).status, 200, "still signed in 58 minutes after sign-in");
    });

    it("asked by the warning's script, the check at the limit answers the seconds left and the session that answers, and 401 with why once the session has ended", async () => {
      const alice = await signIn(clocked.portal.app, accounts.alice, clocked.portal.code);
      const json = { accept: "application/json" };
      const session = await pageSession(alice);
      clocked.now += 10 * MINUTE;
      const live = await alice.get("/session/idle?return=%2Fclient%2Fhome", json);
      assert.equal(live.status, 200);
      assert.deepEqual(JSON.parse(live.text), { idleSeconds: (IDLE_MINUTES - 10) * 60, session }, "the page's session");
      clocked.now += (IDLE_MINUTES - 9) * MINUTE;
      const idle = { ended: "idle", detail: `${errorTexts.sessionExpired}. ${loginTexts.endedIdle(IDLE_MINUTES)}` };
      const ended = await alice.get("/session/idle?return=%2Fclient%2Fhome", json);
      assert.equal(ended.status, 401);
      assert.deepEqual(JSON.parse(ended.text), idle);
      const again = await alice.get("/session/idle?return=%2Fclient%2Fhome", json);
      assert.deepEqual(JSON.parse(again.text), idle, "a second tab asking is told why too: asking uses nothing up");
      const checked = await alice.get("/session/idle?return=%2Fclient%2Fhome");
      assert.equal(checked.headers.location, "/?return=%2Fclient%2Fhome", "the page then goes to sign in again");
      const login = await alice.get("/");
      assert.ok(login.text.includes(loginTexts.endedIdle(IDLE_MINUTES)), "which says why the session ended");
    });
  });

  describe("the check a page's script makes every few seconds", () => {
    const json = { accept: "application/json" };

    it("costs the session nothing: no cookie is written and the idle time goes on", async () => {
      const alice = await signIn(clocked.portal.app, accounts.alice, clocked.portal.code);
      clocked.now += 5 * MINUTE;
      for (let check = 0; check < 3; check += 1) {
        const live = await alice.get("/session/idle?return=%2Fclient%2Fhome", json);
        assert.equal(live.status, 200);
        assert.equal(live.headers["set-cookie"], undefined, "no cookie sealed again for a check");
        clocked.now += 2 * MINUTE;
      }
      assert.equal(JSON.parse((await alice.get("/session/idle", json)).text).idleSeconds, (IDLE_MINUTES - 11) * 60);
    });

    it("tells a session at its absolute lifetime that it reached it", async () => {
      const vera = await signIn(clocked.portal.app, accounts.vera, clocked.portal.code);
      const born = clocked.now;
      while (clocked.now - born <= 12 * 60 * MINUTE) {
        assert.equal((await vera.post("/session/stay", {}, json)).status, 200, "kept alive by its person");
        clocked.now += (IDLE_MINUTES - 1) * MINUTE;
      }
      const ended = await vera.get("/session/idle", json);
      assert.equal(ended.status, 401);
      assert.equal(JSON.parse(ended.text).ended, "lifetime");
      assert.equal(JSON.parse(ended.text).detail, `${errorTexts.sessionExpired}. ${loginNotices.endedLifetime(12)}`);
    });

    it("tells a request that brought no session only that, and writes nothing", async () => {
      const nobody = await new PortalClient(clocked.portal.app).get("/session/idle?return=%2Fclient%2Fhome", json);
      assert.equal(nobody.status, 401);
      assert.deepEqual(JSON.parse(nobody.text), { ended: "not-signed-in", detail: errorTexts.sessionExpired });
      assert.equal(nobody.headers["set-cookie"], undefined);
    });
  });

  describe("the breaks SECURITY.md numbers B1 to B15", () => {
    it("B13: POST /session/stay or GET /session/idle with return given twice, as an array or as an object answers 400, never 500", async () => {
      const fake = await portalOnFake(happyUpstream());
      try {
        const visitor = await signIn(fake.app, accounts.alice, fake.code);
        const headers = { cookie: visitor.cookieHeader };
        // The page's own form and refresh: no islands' header.
        const page = new PortalClient(fake.app, { islandsHeader: false });
        const stay = (body: unknown) => page.post("/session/stay", body, headers);
        const hostile: [string, () => Promise<PortalAnswer>][] = [
          [
            "idle, return twice",
            () => page.get("/session/idle?return=%2Fclient%2Fhome&return=%2Fclient%2Finbox", headers),
          ],
          ["idle, return twice, one empty", () => page.get("/session/idle?return=&return=%2Fclient%2Fhome", headers)],
          ["stay, return twice in the form", () => stay(new URLSearchParams("return=%2Fa&return=%2Fb"))],
          ["stay, return as an array", () => stay({ return: ["/client/home"] })],
          ["stay, return as an object", () => stay({ return: { toString: 1 } })],
          ["stay, return as a number", () => stay({ return: 42 })],
        ];
        for (const [what, send] of hostile) {
          const answer = await send();
          assert.equal(answer.status, 400, `${what}: ${answer.status} ${answer.text}`);
          assert.ok(answer.json().description || answer.json().detail, `${what}: a clear message`);
        }
        const fine = await page.get("/session/idle?return=%2Fclient%2Finbox", headers);
        assert.equal(fine.status, 303, "one return is still followed");
        assert.equal(fine.headers.location, "/client/inbox?by-itself");
      } finally {
        await fake.close();
      }
    });
  });

  describe("sign-out", () => {
    it("'Use another account' cancels the pending sign-in and returns to its tab, without the signed-out notice", async () => {
      const visitor = new PortalClient(portal.app);
      await visitor.post("/api/auth/vendor", { username: "vera", password: DEMO_PASSWORD });
      const pending = visitor.copy();
      // The MFA step's own HTML form posts it, without the islands' header.
      const step = visitor.copy(portal.app, { islandsHeader: false });
      const answer = await step.post("/session/logout", new URLSearchParams({ intent: "use-another-account" }));
      assert.equal(answer.status, 303);
      assert.equal(answer.headers.location, "/?activeSite=VENDOR");
      assert.equal((await pending.post("/api/web/vendor/mfa/generate")).status, 401, "the pending sign-in is over");
    });

    it("a plain sign-out still says so", async () => {
      const visitor = await signIn(portal.app, accounts.vera, portal.code);
      const answer = await visitor.post("/session/logout");
      assert.equal(answer.headers.location, "/?signed-out");
    });
  });

  /** Where /session/landing sends this visitor, for the page first asked for (`target`). */
  const landsOn = async (visitor: PortalClient, target?: string) => {
    const answer = await visitor.get(`/session/landing${target ? `?return=${encodeURIComponent(target)}` : ""}`);
    assert.equal(answer.status, 303);
    return answer.headers.location;
  };

  describe("after sign-in, the page first asked for", () => {
    it("lands there when the gate lets the user in, and on the home page when it does not", async () => {
      const vera = await signIn(portal.app, accounts.vera, portal.code); // user tier 1
      const vince = await signIn(portal.app, accounts.vince, portal.code); // user tier 0
      assert.equal(await landsOn(vera, "/vendor/invoice/rejected"), "/vendor/invoice/rejected");
      assert.equal(await landsOn(vince, "/vendor/invoice/rejected"), "/vendor/home");
      assert.equal(await landsOn(vera, "/vendor/reports/invoices?page=2"), "/vendor/reports/invoices?page=2");
      assert.equal(await landsOn(vera), "/vendor/home");
    });

    it("only a path of this site, in the user's own section", async () => {
      const vera = await signIn(portal.app, accounts.vera, portal.code);
      for (const target of ["//evil.example/x", "https://evil.example/", "/\\evil.example", "/client/home", "/nowhere"])
        assert.equal(await landsOn(vera, target), "/vendor/home", target);
    });

    it("a signed-out landing is the sign-in page", async () => {
      assert.equal(await landsOn(new PortalClient(portal.app), "/vendor/home"), "/");
    });
  });

  describe("after sign-in in tax-bridge mode", () => {
    let taxBridge: RunningPortal;
    before(async () => {
      taxBridge = await startPortalInProcess({ listen: false, env: { TAX_BRIDGE: "true" } });
    });
    after(() => taxBridge.close());

    it("lands on 2.7's landing when its gate opens, and falls back to the home page when it is shut", async () => {
      assert.equal(await landsOn(await signIn(taxBridge.app, accounts.vera, taxBridge.code)), "/vendor/invoice/due");
      assert.equal(
        await landsOn(await signIn(taxBridge.app, accounts.vince, taxBridge.code)),
        "/vendor/home",
        "never Access Denied at once",
      );
      assert.equal(
        await landsOn(await signIn(taxBridge.app, accounts.alice, taxBridge.code)),
        "/client/submission/report",
      );
      assert.equal(await landsOn(await signIn(taxBridge.app, accounts.gary, taxBridge.code)), "/client/home");
    });
  });

  describe("where a sign-in lands when the permissions cannot be read (review F4)", () => {
    it("the page first asked for, when it has no gate; home in place of a gated one", async () => {
      const happy = happyUpstream();
      const fake = await portalOnFake((call, response) =>
        /\/user-info$/.test(call.path) ? void response.writeHead(404).end() : happy(call, response),
      );
      try {
        const alice = await signIn(fake.app, accounts.alice, fake.code);
        const to = async (path: string) =>
          (await alice.get(`/session/landing?return=${encodeURIComponent(path)}`)).headers.location;
        assert.equal(await to("/client/activity"), "/client/activity");
        assert.equal(await to("/client/vip/dashboard"), "/client/home");
      } finally {
        await fake.close();
      }
    });
  });
});

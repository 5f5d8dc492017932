// server/session/plugin.ts: only a person restarts the idle clock: the load the browser makes by itself when
// /session/idle sends it back to a live page, and the checking page asking again, leave the idle time running; a
// person's navigation restarts it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, DEMO_PASSWORD, signIn } from "#harness/sign-in.ts";
import { BY_ITSELF, byItself } from "#server/session/plugin.ts";
import { clockedPortal, MINUTE } from "#tests/support/clocked-portal.ts";

const clocked = clockedPortal();

describe("what restarts the idle time", () => {
  it("two tabs taking turns at /session/idle never keep a session alive past the limit after the last action", async () => {
    const alice = await signIn(clocked.portal.app, accounts.alice, clocked.portal.code);
    assert.equal((await alice.get("/client/inbox")).status, 200, "the last action: a person's navigation");
    // Each tab's Refresh in turn, 25 minutes apart, on different pages: each is sent back to its live page.
    clocked.now += 25 * MINUTE;
    const first = await alice.get("/session/idle?return=%2Fclient%2Fhome");
    assert.equal(first.headers.location, `/client/home?${BY_ITSELF}`);
    assert.equal((await alice.get(String(first.headers.location))).status, 200, "the page is shown again");
    clocked.now += 6 * MINUTE;
    const second = await alice.get("/session/idle?return=%2Fclient%2Finbox");
    assert.equal(second.headers.location, "/?return=%2Fclient%2Finbox", "31 minutes after the last action: ended");
  });

  it("a person's navigation restarts it, the same page loaded by the browser itself does not", async () => {
    const alice = await signIn(clocked.portal.app, accounts.alice, clocked.portal.code);
    clocked.now += 20 * MINUTE;
    assert.equal((await alice.get(`/client/inbox?${BY_ITSELF}`)).status, 200);
    clocked.now += 11 * MINUTE;
    assert.equal((await alice.get("/client/home")).status, 302, "31 minutes after sign-in: ended");

    const bob = await signIn(clocked.portal.app, accounts.alice, clocked.portal.code);
    clocked.now += 20 * MINUTE;
    assert.equal((await bob.get("/client/home")).status, 200, "a person's navigation");
    clocked.now += 11 * MINUTE;
    assert.equal((await bob.get("/client/inbox")).status, 200, "11 minutes after it: still signed in");
  });

  it("a link from another site opens the page and does not restart it: another site can send a browser there unattended", async () => {
    const alice = await signIn(clocked.portal.app, accounts.alice, clocked.portal.code);
    clocked.now += 29 * MINUTE;
    const link = { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" };
    assert.equal((await alice.get("/client/inbox", link)).status, 200, "the page opens");
    clocked.now += 2 * MINUTE;
    assert.equal((await alice.get("/client/home")).status, 302, "31 minutes after the last action: ended");
  });

  it("a document page's frame loading its PDF is the browser's doing, and does not restart it", async () => {
    const alice = await signIn(clocked.portal.app, accounts.alice, clocked.portal.code);
    clocked.now += 20 * MINUTE;
    assert.equal((await alice.get(`/client/docs/bank-holidays?${BY_ITSELF}`)).status, 200);
    assert.equal((await alice.get("/pdfs/BankHolidays.pdf")).status, 200, "the frame's load");
    clocked.now += 11 * MINUTE;
    assert.equal((await alice.get("/client/home")).status, 302, "31 minutes after sign-in: ended");
  });

  it("a refusal, a HEAD and a prefetch or prerender do not restart it; a request the route accepted does", async () => {
    const alice = await signIn(clocked.portal.app, accounts.alice, clocked.portal.code);
    const requests: [string, () => Promise<{ status: number }>][] = [
      ["an /api call refused as not found", () => alice.get("/api/web/client/no-such-operation")],
      ["a page refused", () => alice.get("/client/no-such-page")],
      ["a HEAD", () => alice.request("HEAD", "/client/inbox")],
      ["a prefetch", () => alice.request("GET", "/client/users", undefined, { "sec-purpose": "prefetch" })],
      ["a prerender", () => alice.request("GET", "/client/home", undefined, { "sec-purpose": "prefetch;prerender" })],
      ["a legacy prefetch", () => alice.request("GET", "/client/inbox", undefined, { purpose: "prefetch" })],
    ];
    for (const [, send] of requests) {
      clocked.now += 5 * MINUTE;
      await send();
    }
    clocked.now += 2 * MINUTE; // 37 minutes after the sign-in, the last action
    assert.equal((await alice.get("/client/home")).status, 302, "none of them kept the session alive: ended");
  });

  it("the marker is added once, before any fragment, beside any query", () => {
    assert.equal(byItself("/client/home"), `/client/home?${BY_ITSELF}`);
    assert.equal(byItself("/client/home?tab=2#top"), `/client/home?tab=2&${BY_ITSELF}#top`);
    assert.equal(byItself(byItself("/client/home")), `/client/home?${BY_ITSELF}`);
  });
});

describe("a page the person opened", () => {
  const navigation = (site: string, user?: "?1") => ({
    "sec-fetch-site": site,
    "sec-fetch-mode": "navigate",
    "sec-fetch-dest": "document",
    ...(user ? { "sec-fetch-user": user } : {}),
  });
  /** Whether the MFA step the page shows is told to send no code as it opens. */
  const quiet = (text: string) => text.includes('"quiet":true');

  it("opens the MFA step that sends a code; one another site or the browser by itself opened sends none", async () => {
    const visitor = new PortalClient(clocked.portal.app);
    const pending = await visitor.post("/api/auth/vendor", { username: "vera", password: DEMO_PASSWORD });
    assert.equal(pending.json().tokenHeld, true, pending.text);
    for (const path of ["/mfa", "/"]) {
      const own = await visitor.get(path, navigation("same-origin", "?1"));
      assert.match(own.text, /data-island="(mfa|login)"/);
      assert.equal(quiet(own.text), false, `${path}: the person's own navigation`);
      assert.equal(quiet((await visitor.get(path, navigation("none", "?1"))).text), false, `${path}: typed`);
      assert.equal(quiet((await visitor.get(path, navigation("cross-site"))).text), true, `${path}: another site`);
      assert.equal(quiet((await visitor.get(path, navigation("cross-site", "?1"))).text), true, `${path}: a link`);
      assert.equal(quiet((await visitor.get(path, navigation("same-origin"))).text), true, `${path}: no action`);
    }
  });
});

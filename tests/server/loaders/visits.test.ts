// Which page views are visits (requirements 4.8): a signed-in navigation to a page, never `/`, never the previous path,
// is sent upstream once its answer has gone, with the page's whole path and the session's own token. The previous path
// is the session's, kept in its record in the ledger: a visit writes no cookie. A navigation is a GET for a document
// that is no prefetch.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyRequest } from "fastify";
import { type FakeUpstream, forwardTo, startFakeUpstream } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, DEMO_PASSWORD, signIn } from "#harness/sign-in.ts";
import { isNavigation } from "#server/loaders/visits.ts";
import { clockedPortal, IDLE_MINUTES, MINUTE } from "#tests/support/clocked-portal.ts";
import { type RunningPortal, sandboxVisits, startPortalInProcess, visitsOf } from "#tests/support/portal.ts";
import { setCookies } from "#tests/support/portal-on-fake.ts";
import { scaled } from "#tests/support/waiting.ts";

/** Waits until the user has `count` records, then a little longer, so a record too many would show too. */
async function settledVisits(sandboxUrl: string, username: string, count: number): Promise<string[]> {
  const deadline = Date.now() + scaled(5_000);
  while ((await visitsOf(sandboxUrl, username)).length < count && Date.now() < deadline) await sleep(20);
  await sleep(100);
  return visitsOf(sandboxUrl, username);
}

/** A second portal, on a clock the tests move: when a session's cookie is written depends on the minute. */
const clocked = clockedPortal();

/** The portal, with its upstream behind a proxy that counts the track calls. */
let portal: RunningPortal;
let upstream: FakeUpstream;

describe("server/loaders/visits", () => {
  before(async () => {
    upstream = await startFakeUpstream();
    portal = await startPortalInProcess({ listen: false, env: { UPSTREAM_URL: upstream.url } });
    upstream.answer = forwardTo(portal.sandboxUrl);
  });
  after(async () => {
    await portal.close();
    await upstream.close();
  });

  describe("page tracking", () => {
    it("sends one record per navigation, but none for a repeat of the previous path: A, A, B, A gives A, B, A", async () => {
      delete upstream.faults.track;
      const alice = await signIn(portal.app, accounts.alice, portal.code);
      for (const path of ["/client/home", "/client/home", "/client/inbox", "/client/home"]) {
        assert.equal((await alice.get(path)).status, 200, path);
      }
      assert.deepEqual(await settledVisits(portal.sandboxUrl, "alice", 3), [
        "/client/home",
        "/client/inbox",
        "/client/home",
      ]);
    });

    it("never sends a record for /, which sends a signed-in user on to the landing", async () => {
      const victor = await signIn(portal.app, accounts.victor, portal.code);
      const root = await victor.get("/");
      assert.deepEqual([root.status, root.headers.location], [302, "/session/landing"]);
      const landing = await victor.get("/session/landing");
      assert.deepEqual([landing.status, landing.headers.location], [303, "/client/home"]);
      await victor.get("/?activeSite=VENDOR");
      await victor.get("/client/home");
      await victor.get("/");
      await victor.get("/client/home");
      assert.deepEqual(await settledVisits(portal.sandboxUrl, "victor", 1), ["/client/home"]);
    });

    it("records forbidden and not-found pages too (they are navigations), but not HEAD requests or prefetches", async () => {
      const vince = await signIn(portal.app, accounts.vince, portal.code);
      assert.equal((await vince.get("/vendor/invoice/entry")).status, 403);
      assert.equal((await vince.request("HEAD", "/vendor/inbox")).status, 200);
      // The browser's own prefetch: no islands' header, and its answer does not reach vince's jar.
      const prefetch = await new PortalClient(portal.app, { islandsHeader: false }).get("/vendor/contact-us", {
        cookie: vince.cookieHeader,
        "sec-purpose": "prefetch",
      });
      assert.equal(prefetch.status, 200);
      assert.equal((await vince.get("/vendor/nowhere")).status, 404);
      assert.deepEqual(await settledVisits(portal.sandboxUrl, "vince", 2), [
        "/vendor/invoice/entry",
        "/vendor/nowhere",
      ]);
    });

    it("sends nothing for a visitor who is not signed in", async () => {
      const before = await sandboxVisits(portal.sandboxUrl);
      const received = upstream.watched.track.received;
      const anonymous = new PortalClient(portal.app);
      for (const path of ["/register", "/videos/intro", "/login", "/"]) await anonymous.get(path);
      await sleep(100);
      assert.equal(upstream.watched.track.received, received);
      const now = await sandboxVisits(portal.sandboxUrl);
      assert.equal(now.length, before.length);
    });
  });

  describe("what a visit is", () => {
    it("a page is its path: the same page with another query is no new visit", async () => {
      const gary = await signIn(portal.app, accounts.gary, portal.code);
      for (const path of ["/client/home", "/client/home?tab=2", "/client/home?by-itself", "/client/inbox?tab=1"])
        assert.equal((await gary.get(path)).status, 200, path);
      assert.deepEqual(await settledVisits(portal.sandboxUrl, "gary", 2), ["/client/home", "/client/inbox"]);
    });

    it("a page is one path however its address is spelled: case, a trailing slash and escapes name the page it shows", async () => {
      const vince = await signIn(portal.app, accounts.vince, portal.code);
      const before = (await visitsOf(portal.sandboxUrl, "vince")).length;
      for (const path of ["/vendor/home", "/vendor/inbox", "/vendor/Inbox", "/vendor/inbox/", "/vendor/%69nbox"])
        assert.equal((await vince.get(path)).status, 200, path);
      const visits = await settledVisits(portal.sandboxUrl, "vince", before + 2);
      assert.deepEqual(visits.slice(before), ["/vendor/home", "/vendor/inbox"]);
    });

    it("an address that redirects is no visit: an unknown top-level path goes to / and records nothing", async () => {
      const gary = await signIn(portal.app, accounts.gary, portal.code);
      await sleep(100);
      const received = upstream.watched.track.received;
      for (const path of ["/nowhere", "/client/../nowhere", "/"])
        assert.equal((await gary.get(path)).status, 302, path);
      await sleep(100);
      assert.equal(upstream.watched.track.received, received, "no track call");
      assert.equal((await gary.get("/client/home")).status, 200);
      const deadline = Date.now() + scaled(5_000);
      while (upstream.watched.track.received === received && Date.now() < deadline) await sleep(20);
      assert.equal(upstream.watched.track.received, received + 1, "the next page is a visit");
    });

    it("a long or non-ASCII path is sent whole, and not twice in a row", async () => {
      const vera = await signIn(portal.app, accounts.vera, portal.code);
      const long = `/vendor/${"x".repeat(120)}`;
      const accented = `/vendor/caf%C3%A9`;
      for (const path of [long, long, accented, accented, "/vendor/home"]) await vera.get(path);
      const sent = await settledVisits(portal.sandboxUrl, "vera", 3);
      assert.equal(sent.length, 3, JSON.stringify(sent));
      assert.equal(sent[0], long);
      assert.match(sent[1] ?? "", /^\/vendor\/caf/);
      assert.equal(sent[2], "/vendor/home");
    });

    it("a session still waiting for its code sends no visit", async () => {
      const before = (await sandboxVisits(portal.sandboxUrl)).length;
      const received = upstream.watched.track.received;
      const pending = new PortalClient(portal.app);
      const login = await pending.post("/api/auth/vendor", { username: "vince", password: DEMO_PASSWORD });
      assert.equal(login.status, 200, login.text);
      for (const path of ["/mfa", "/register", "/vendor/home"]) await pending.get(path);
      await sleep(100);
      assert.equal(upstream.watched.track.received, received);
      assert.equal((await sandboxVisits(portal.sandboxUrl)).length, before);
    });
  });

  describe("the previous path, kept in the session's record", () => {
    /** The names of the cookies an answer sets. */
    const written = (answer: { headers: Parameters<typeof setCookies>[0]["headers"] }) =>
      setCookies(answer).map((cookie) => cookie.slice(0, cookie.indexOf("=")));

    it("a visit, a repeat view and the next visit write no cookie at all: the record keeps the previous path", async () => {
      clocked.now = Math.ceil(Date.now() / MINUTE) * MINUTE + 1_000;
      const vera = await signIn(clocked.portal.app, accounts.vera, clocked.portal.code);
      const visit = await vera.get("/vendor/home");
      assert.deepEqual([visit.status, written(visit)], [200, []]);
      const repeat = await vera.get("/vendor/home?tab=2");
      assert.deepEqual([repeat.status, written(repeat)], [200, []]);
      clocked.now += 2 * MINUTE; // the record's seen is due a write too
      const next = await vera.get("/vendor/inbox");
      assert.deepEqual([next.status, written(next)], [200, []]);
      assert.deepEqual(await settledVisits(clocked.portal.sandboxUrl, "vera", 2), ["/vendor/home", "/vendor/inbox"]);
    });

    it("a visit is an action like any other: it restarts the idle time, as the record keeps it", async () => {
      clocked.now = Math.ceil(clocked.now / MINUTE) * MINUTE + MINUTE + 1_000;
      const victor = await signIn(clocked.portal.app, accounts.victor, clocked.portal.code);
      clocked.now += 30_000;
      assert.equal((await victor.get("/client/inbox")).status, 200);
      clocked.now += MINUTE;
      assert.equal((await victor.get("/client/home")).status, 200);
      clocked.now += IDLE_MINUTES * MINUTE - 10_000;
      const page = await victor.get("/client/home");
      assert.equal(page.status, 200, "within the idle limit from the visit, though past it from the sign-in");
    });

    it("is the session's, whichever tab asks: a copy of the cookie viewing the previous page sends no second visit", async () => {
      const vince = await signIn(clocked.portal.app, accounts.vince, clocked.portal.code);
      const tab = vince.copy(); // another tab, its cookies copied before the visit below
      const before = (await visitsOf(clocked.portal.sandboxUrl, "vince")).length;
      assert.equal((await vince.get("/vendor/inbox")).status, 200);
      assert.equal((await tab.get("/vendor/inbox")).status, 200);
      assert.equal((await tab.get("/vendor/home")).status, 200);
      const visits = await settledVisits(clocked.portal.sandboxUrl, "vince", before + 2);
      assert.deepEqual(visits.slice(before), ["/vendor/inbox", "/vendor/home"]);
    });

    it("is no other session's, even the same person's: each session's first view of a page is a visit", async () => {
      const first = await signIn(clocked.portal.app, accounts.gary, clocked.portal.code);
      const second = await signIn(clocked.portal.app, accounts.gary, clocked.portal.code);
      const before = (await visitsOf(clocked.portal.sandboxUrl, "gary")).length;
      assert.equal((await first.get("/client/support")).status, 200);
      assert.equal((await second.get("/client/support")).status, 200);
      const visits = await settledVisits(clocked.portal.sandboxUrl, "gary", before + 2);
      assert.deepEqual(visits.slice(before), ["/client/support", "/client/support"]);
    });

    it("two long paths that differ only at their end are two pages", async () => {
      const vera = await signIn(clocked.portal.app, accounts.vera, clocked.portal.code);
      const long = `/vendor/${"y".repeat(2_000)}`;
      const before = (await visitsOf(clocked.portal.sandboxUrl, "vera")).length;
      for (const path of [`${long}1`, `${long}2`, `${long}2`]) await vera.get(path);
      const visits = await settledVisits(clocked.portal.sandboxUrl, "vera", before + 2);
      assert.deepEqual(visits.slice(before), [`${long}1`, `${long}2`]);
    });
  });

  describe("isNavigation (what page tracking counts as a visit)", () => {
    const request = (method: string, headers: Record<string, string>) =>
      ({ method, headers }) as unknown as FastifyRequest;
    it("counts a GET for a document, or from a browser that does not say what it fetches", () => {
      assert.equal(isNavigation(request("GET", { "sec-fetch-dest": "document" })), true);
      assert.equal(isNavigation(request("GET", {})), true);
    });
    it("does not count a HEAD, an icon or image request that lands on a page, or a prefetch", () => {
      assert.equal(isNavigation(request("HEAD", {})), false);
      assert.equal(isNavigation(request("GET", { "sec-fetch-dest": "image" })), false);
      assert.equal(isNavigation(request("GET", { "sec-purpose": "prefetch" })), false);
    });
  });
});

// The session registry at work in one portal: a sign-in is listed with its device and address, "last seen" is
// written at most once a minute, and a sign-out takes the session off the list.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { personOf } from "#server/account/sessions.ts";
import type { AccountState } from "#server/account/state.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";
import { until } from "#tests/support/stores.ts";

const WINDOWS_CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const MAC_FIREFOX = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:121.0) Gecko/20100101 Firefox/121.0";
const alice = personOf({ site: "client", company: "ACME", userName: "alice" });

describe("the session registry in a portal", () => {
  let portal: RunningPortal;
  let time = Date.now();
  let account: AccountState;
  before(async () => {
    portal = await startPortalInProcess({ listen: false, now: () => time });
    account = portal.app.account as AccountState;
  });
  after(() => portal.close());

  const browser = (userAgent: string) => {
    const client = new PortalClient(portal.app);
    client.headers = { "user-agent": userAgent };
    return client;
  };

  it("lists each signed-in session with its device and address, and drops one signed out", async () => {
    const laptop = await signIn(browser(WINDOWS_CHROME), accounts.alice, portal.code);
    time += 1_000;
    const other = await signIn(browser(MAC_FIREFOX), accounts.alice, portal.code);
    const listed = await account.sessions.list(alice);
    assert.deepEqual(
      listed.sessions.map(({ device, address }) => [device, address]),
      [
        ["Firefox on macOS", "127.0.0.1"],
        ["Chrome on Windows", "127.0.0.1"],
      ],
    );
    assert.equal((await other.post("/session/logout")).status, 303);
    await until(async () => (await account.sessions.list(alice)).sessions.length === 1, 2_000, "the sign-out");
    assert.equal((await account.sessions.list(alice)).sessions[0]?.device, "Chrome on Windows");
    await laptop.post("/session/logout");
  });

  it("writes last seen at most once a minute, on the person's own requests", async () => {
    const laptop = await signIn(browser(WINDOWS_CHROME), accounts.alice, portal.code);
    const [entry] = (await account.sessions.list(alice)).sessions;
    assert.ok(entry);
    time += 30_000;
    await laptop.get("/client/home");
    assert.equal((await account.sessions.list(alice)).sessions[0]?.seen, entry.began, "not within the minute");
    time += 65_000;
    await laptop.get("/client/home");
    await until(
      async () => (await account.sessions.list(alice)).sessions[0]?.seen === time,
      2_000,
      "last seen to be written",
    );
    await laptop.post("/session/logout");
  });

  it("takes a session ended by the idle timeout off the list", async () => {
    const laptop = await signIn(browser(WINDOWS_CHROME), accounts.alice, portal.code);
    assert.equal((await account.sessions.list(alice)).sessions.length, 1);
    time += portal.config.session.idleSeconds * 1000 + 1;
    await laptop.get("/client/home");
    await until(async () => (await account.sessions.list(alice)).sessions.length === 0, 2_000, "the idle end");
  });

  it("keeps the browser's time zone when Intl knows it, and nothing else", async () => {
    const tokyo = browser(WINDOWS_CHROME);
    tokyo.headers["x-portal-time-zone"] = "Asia/Tokyo";
    const signedInTokyo = await signIn(tokyo, accounts.alice, portal.code);
    time += 1_000;
    const hostile = browser(MAC_FIREFOX);
    hostile.headers["x-portal-time-zone"] = "<b>Mars/Olympus</b>";
    const signedInHostile = await signIn(hostile, accounts.alice, portal.code);
    const { sessions } = await account.sessions.list(alice);
    assert.deepEqual(
      sessions.map(({ timeZone }) => timeZone),
      [undefined, "Asia/Tokyo"],
    );
    await signedInTokyo.post("/session/logout");
    await signedInHostile.post("/session/logout");
  });
  it("neither lists nor ends a session idle past the limit: its own next request ends it", async () => {
    const stale = await signIn(browser(MAC_FIREFOX), accounts.victor, portal.code);
    time += 32 * 60_000; // past the default 30-minute idle limit and the minute `seen` may lag
    const fresh = await signIn(browser(WINDOWS_CHROME), accounts.victor, portal.code);
    const page = await fresh.get("/client/users/change-password");
    assert.equal(page.status, 200);
    assert.equal(page.text.match(/name="session" value="[\w-]{22}"/g), null, "no other session is listed");
    assert.equal((await stale.get("/client/home")).status, 302, "the idle one has ended");
  });
});

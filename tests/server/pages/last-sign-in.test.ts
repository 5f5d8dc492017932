// The last sign-in on each section's home: in the viewer's time zone, with the failed attempts since and a way to
// change the password; nothing on a first sign-in.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";

const WINDOWS_CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";

describe("the last sign-in on the home page", () => {
  let portal: RunningPortal;
  // Tuesday 24 November 2026, 01:42 UTC: 10:42 in Tokyo.
  let time = Date.UTC(2026, 10, 24, 1, 42);
  before(async () => {
    portal = await startPortalInProcess({ listen: false, now: () => time });
  });
  after(() => portal.close());

  const browser = (remoteAddress?: string) => {
    const client = new PortalClient(portal.app, remoteAddress ? { remoteAddress } : {});
    client.headers = { "user-agent": WINDOWS_CHROME, "x-portal-time-zone": "Asia/Tokyo" };
    return client;
  };

  it("says nothing on a first sign-in, then the last one in the viewer's zone, with the failed attempts since", async () => {
    const first = await signIn(browser(), accounts.alice, portal.code);
    const home = await first.get("/client/home");
    assert.equal(home.status, 200);
    assert.doesNotMatch(home.text, /Last signed in/);
    await first.post("/session/logout");

    time += 3_600_000;
    const wrong = { shortname: "ACME", username: "alice", password: "Wrong-Password-Home-1!" };
    for (let attempt = 0; attempt < 2; attempt += 1) await browser().post("/api/auth/client", wrong);
    const second = await signIn(browser(), accounts.alice, portal.code);
    const again = await second.get("/client/home");
    assert.match(again.text, /Last signed in Tuesday 24 November at 10:42 from Chrome on Windows\./);
    assert.match(again.text, /2 failed sign-in attempts from 1 address since then\./);
    assert.match(
      again.text,
      /Not you\?(<!-- -->)? <a href="\/client\/users\/change-password">Change your password<\/a>/,
    );
    await second.post("/session/logout");
  });

  it("appears on every section's home, and without failures has no warning", async () => {
    await (await signIn(browser(), accounts.victor, portal.code)).post("/session/logout");
    time += 60_000;
    const victor = await signIn(browser(), accounts.victor, portal.code);
    for (const home of ["/client/home", "/uspto/home", "/uscis/home"]) {
      const page = await victor.get(home);
      assert.equal(page.status, 200, home);
      assert.match(page.text, /Last signed in Tuesday 24 November at 11:42 from Chrome on Windows\./, home);
      assert.doesNotMatch(page.text, /failed sign-in/, home);
    }
    const vera = await signIn(browser(), accounts.vera, portal.code);
    await vera.post("/session/logout");
    const again = await signIn(browser(), accounts.vera, portal.code);
    assert.match((await again.get("/vendor/home")).text, /Last signed in/);
  });

  it("still says the last sign-in after an attack, with its count and its addresses growing with it", async () => {
    await (await signIn(browser(), accounts.gary, portal.code)).post("/session/logout");
    time += 60_000;
    const wrong = { shortname: "GLOBEX", username: "gary", password: "Wrong-Password-Home-2!" };
    for (let attempt = 0; attempt < 25; attempt += 1)
      await browser(`203.0.113.${(attempt % 3) + 1}`).post("/api/auth/client", wrong);
    const gary = await signIn(browser(), accounts.gary, portal.code);
    const home = (await gary.get("/client/home")).text.replaceAll("<!-- -->", "");
    assert.match(home, /Last signed in Tuesday 24 November at 11:43 from Chrome on Windows\./);
    assert.match(home, /25 failed sign-in attempts from 3 addresses since then\./);
    await gary.post("/session/logout");
  });
});

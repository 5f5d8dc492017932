// The last sign-in on each section's home: the one before this session's own, found by the session's id, in the
// viewer's time zone, with the failed attempts since and a way to change the password, and the sign-ins made elsewhere
// after this session's own; nothing on a first sign-in. In memory, and shared through a real redis-server.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { PortalClient } from "#harness/portal-client.ts";
import { RedisServer } from "#harness/redis-server.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { ACTIVITY_PER_PERSON } from "#server/stores/memory-bounds.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";

const WINDOWS_CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const WINDOWS_FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0";
const LINUX_FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0";

/** A page's text as read: without the markers React puts between adjacent pieces of text. */
const read = (html: string) => html.replaceAll("<!-- -->", "");

let redis: RedisServer;
describe("server/loaders/last-sign-in", () => {
  before(async () => {
    redis = await RedisServer.start();
  });
  after(() => redis.stop());

  for (const backend of ["memory", "redis"] as const) {
    describe(`${backend}: the last sign-in on the home page`, () => {
      let portal: RunningPortal;
      // Tuesday 24 November 2026, 01:42 UTC: 10:42 in Tokyo.
      let time = Date.UTC(2026, 10, 24, 1, 42);
      before(async () => {
        const shared = { REDIS_URL: redis.url, REDIS_KEY_PREFIX: `last-sign-in-${randomUUID()}:` };
        portal = await startPortalInProcess({ listen: false, now: () => time, env: backend === "redis" ? shared : {} });
      });
      after(() => portal.close());

      const browser = (userAgent = WINDOWS_CHROME, remoteAddress?: string) => {
        const client = new PortalClient(portal.app, remoteAddress ? { remoteAddress } : {});
        client.headers = { "user-agent": userAgent, "x-portal-time-zone": "Asia/Tokyo" };
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
        assert.match(
          again.text,
          /Last signed in Tuesday, 24 November 2026 at 10:42\u00a0GMT\+9 from Chrome on Windows\./,
        );
        assert.match(again.text, /2 failed sign-in attempts from 1 address since then\./);
        assert.match(
          again.text,
          /Not you\?(<!-- -->)? <a href="\/client\/users\/change-password">Change your password<\/a>/,
        );
        assert.doesNotMatch(again.text, /Also signed in since/);
        await second.post("/session/logout");
      });

      it("appears on every section's home, and without failures has no warning", async () => {
        await (await signIn(browser(), accounts.victor, portal.code)).post("/session/logout");
        time += 60_000;
        const victor = await signIn(browser(), accounts.victor, portal.code);
        for (const home of ["/client/home", "/uspto/home", "/uscis/home"]) {
          const page = await victor.get(home);
          assert.equal(page.status, 200, home);
          assert.match(
            page.text,
            /Last signed in Tuesday, 24 November 2026 at 11:42\u00a0GMT\+9 from Chrome on Windows\./,
            home,
          );
          assert.doesNotMatch(page.text, /failed sign-in/, home);
        }
        const vera = await signIn(browser(), accounts.vera, portal.code);
        await vera.post("/session/logout");
        const again = await signIn(browser(), accounts.vera, portal.code);
        assert.match((await again.get("/vendor/home")).text, /Last signed in/);
      });

      it("on device A after a sign-in on B: the sign-in before A's own, and B's since; on B, A's as the last", async () => {
        time += 3_600_000; // 12:43 in Tokyo
        await (await signIn(browser(LINUX_FIREFOX), accounts.gary, portal.code)).post("/session/logout");
        time += 3_600_000; // 13:43
        const deviceA = await signIn(browser(WINDOWS_CHROME), accounts.gary, portal.code);
        time += 20 * 60_000; // 14:03, within A's idle limit
        const deviceB = await signIn(browser(WINDOWS_FIREFOX), accounts.gary, portal.code);
        time += 60_000;

        const onA = read((await deviceA.get("/client/home")).text);
        assert.match(onA, /Last signed in Tuesday, 24 November 2026 at 12:43\u00a0GMT\+9 from Firefox on Linux\./);
        assert.match(onA, /Also signed in since: Firefox on Windows, Tuesday, 24 November 2026 at 14:03\u00a0GMT\+9\./);
        assert.doesNotMatch(onA, /13:43/, "A's own sign-in is never named");

        const onB = read((await deviceB.get("/client/home")).text);
        assert.match(onB, /Last signed in Tuesday, 24 November 2026 at 13:43\u00a0GMT\+9 from Chrome on Windows\./);
        assert.doesNotMatch(onB, /Also signed in since/);
      });

      it("names the later sign-ins even once newer events have pushed this session's own out of the kept activity", async () => {
        time += 3_600_000;
        const first = await signIn(browser(WINDOWS_CHROME), accounts.globexAlice, portal.code);
        // Each sign-in keeps three events (password, code sent, code passed): more than the kept activity holds.
        const later = Math.ceil(ACTIVITY_PER_PERSON / 3) + 1;
        for (let index = 0; index < later; index += 1) {
          time += 60_000;
          await signIn(browser(WINDOWS_FIREFOX), accounts.globexAlice, portal.code);
        }
        const onFirst = read((await first.get("/client/home")).text);
        assert.match(
          onFirst,
          /Also signed in since: Firefox on Windows, Tuesday, 24 November 2026 at \d\d:\d\d\u00a0GMT\+9/,
        );
        assert.doesNotMatch(onFirst, /Last signed in/, "its own sign-in is never told as the last");
        assert.doesNotMatch(onFirst, /Chrome on Windows/, "nor among the later ones");
      });

      it("still says the last sign-in after an attack, with its count and its addresses growing with it", async () => {
        time += 3_600_000;
        await (await signIn(browser(), accounts.vince, portal.code)).post("/session/logout");
        time += 60_000;
        const wrong = { username: "vince", password: "Wrong-Password-Home-2!" };
        for (let attempt = 0; attempt < 25; attempt += 1)
          await browser(WINDOWS_CHROME, `203.0.113.${(attempt % 3) + 1}`).post("/api/auth/vendor", wrong);
        const vince = await signIn(browser(), accounts.vince, portal.code);
        const home = read((await vince.get("/vendor/home")).text);
        assert.match(
          home,
          /Last signed in Tuesday, 24 November 2026 at \d\d:\d\d\u00a0GMT\+9 from Chrome on Windows\./,
        );
        assert.match(home, /25 failed sign-in attempts from 3 addresses since then\./);
        await vince.post("/session/logout");
      });

      it("keeps the failed attempts since the sign-in it names after a sign-in on a third device", async () => {
        time = Date.UTC(2026, 10, 25, 1, 0); // Wednesday 25 November, 10:00 in Tokyo
        await signIn(browser(WINDOWS_CHROME), accounts.vince, portal.code);
        time += 60_000;
        const wrong = { username: "vince", password: "Wrong-Password-Home-3!" };
        for (let attempt = 0; attempt < 5; attempt += 1)
          await browser(WINDOWS_CHROME, "203.0.113.9").post("/api/auth/vendor", wrong);
        time += 60_000; // 10:02
        const second = await signIn(browser(WINDOWS_FIREFOX), accounts.vince, portal.code);
        const warning = /5 failed sign-in attempts from 1 address since then\./;
        const before = read((await second.get("/vendor/home")).text);
        assert.match(
          before,
          /Last signed in Wednesday, 25 November 2026 at 10:00\u00a0GMT\+9 from Chrome on Windows\./,
        );
        assert.match(before, warning);

        time += 60_000; // 10:03
        const third = await signIn(browser(LINUX_FIREFOX), accounts.vince, portal.code);
        time += 60_000;
        const onSecond = read((await second.get("/vendor/home")).text);
        assert.match(
          onSecond,
          /Last signed in Wednesday, 25 November 2026 at 10:00\u00a0GMT\+9 from Chrome on Windows\./,
        );
        assert.match(onSecond, warning, "the failures since the sign-in it names");
        assert.match(
          onSecond,
          /Also signed in since: Firefox on Linux, Wednesday, 25 November 2026 at 10:03\u00a0GMT\+9\./,
        );

        const onThird = read((await third.get("/vendor/home")).text);
        assert.match(
          onThird,
          /Last signed in Wednesday, 25 November 2026 at 10:02\u00a0GMT\+9 from Firefox on Windows\./,
        );
        assert.doesNotMatch(onThird, /failed sign-in/, "the failures came before that sign-in");
      });
    });
  }
});

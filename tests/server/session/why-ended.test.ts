// server/session/why-ended.ts: a session ended from another of the person's sessions learns at its next request which
// ending it was (another device, a password change, a reset), as its record keeps it, so its pages and the sign-in
// page say it; so does a copy of a cookie whose session another tab's request just ended at its limit. A cookie whose
// record is gone, or an ending the person is not told of, is told in requirements 4.5's words. Each is worded at the
// portal's configured limits, by the one table of endings, which also says the security event of each.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { PortalClient as Client, type PortalClient } from "#harness/portal-client.ts";
import { type Account, accounts, DEMO_PASSWORD, latestMail, signIn } from "#harness/sign-in.ts";
import type { Config } from "#server/config.ts";
import { END_SESSIONS_PATH } from "#server/loaders/account-view.ts";
import { endEvent, endNotice } from "#server/session/why-ended.ts";
import { clockedPortal, IDLE_MINUTES, MINUTE } from "#tests/support/clocked-portal.ts";
import { type RunningPortal, sandboxPost, startPortalInProcess } from "#tests/support/portal.ts";
import { resetForm, resetLinkPath } from "#tests/support/reset-link.ts";
import { sessionCodec } from "#tests/support/session-codec.ts";
import { END_OTHERS_HEADER } from "#web/api/end-others.ts";
import { REPLACE_SESSION_HEADER } from "#web/protocol/headers.ts";
import { type EndReason, endReasons, unannounced } from "#web/protocol/session-end.ts";
import { errorTexts } from "#web/texts/errors.ts";
import { loginNotices } from "#web/texts/login-notices.ts";
import { loginTexts } from "#web/texts/login-screen.ts";
import { mfaTexts } from "#web/texts/mfa.ts";

let portal: RunningPortal;
describe("server/session/why-ended", () => {
  before(async () => {
    portal = await startPortalInProcess({ listen: false });
  });
  after(() => portal.close());

  const json = { accept: "application/json" };
  /** What the page's script is told when it asks about its session. */
  const asked = async (browser: PortalClient) => {
    const answer = await browser.get("/session/idle?return=%2Fclient%2Fhome", json);
    return { status: answer.status, body: answer.json() as { ended?: string; detail?: string } };
  };
  /** The notice the sign-in page shows this browser. */
  const signInPageSays = async (browser: PortalClient, words: string) =>
    assert.ok((await browser.get("/")).text.includes(words), `the sign-in page says "${words}"`);
  /** Two sessions of one person: two devices. */
  const twoDevices = async (account: Account) => ({
    here: await signIn(portal.app, account, portal.code),
    there: await signIn(portal.app, account, portal.code),
  });

  describe("a session ended from another of the person's sessions", () => {
    it("is told it was signed out from another device by 'Sign out of all other devices', and the sign-in page says so", async () => {
      const { here, there } = await twoDevices(accounts.gary);
      const form = new URLSearchParams({
        session: "all",
        password: DEMO_PASSWORD,
        return: "/client/users/change-password",
      });
      const ended = await new Client(portal.app, { islandsHeader: false }).post(END_SESSIONS_PATH, form, {
        cookie: there.cookieHeader,
      });
      assert.equal(ended.status, 303);
      assert.deepEqual(await asked(here), {
        status: 401,
        body: { ended: "ended-elsewhere", detail: loginNotices.endedElsewhere },
      });
      await signInPageSays(here, loginNotices.endedElsewhere);
    });

    it("is told the password was changed when a change there ended it", async () => {
      const { here, there } = await twoDevices(accounts.vera);
      const tested = await there.post("/api/web/vendor/password/test", { userId: "vera", password: DEMO_PASSWORD });
      assert.equal(tested.status, 200, tested.text);
      const changed = await there.request(
        "POST",
        "/api/web/vendor/password/change",
        { password: "Tabs-Told-Changed-2026!" },
        { [END_OTHERS_HEADER]: "1" },
      );
      assert.equal(changed.status, 200, changed.text);
      assert.deepEqual((await asked(here)).body, { ended: "password-changed", detail: loginNotices.passwordChanged });
      assert.equal((await asked(there)).status, 200, "the session that changed it goes on");
    });

    it("is told the password was reset when the mailed link set a new one", async () => {
      const here = await signIn(portal.app, accounts.alice, portal.code);
      await new Client(portal.app).post("/api/web/reset-pwd", {
        clientShortName: "ACME",
        emailAddress: "alice@acme.example",
      });
      const path = resetLinkPath((await latestMail(portal.sandboxUrl, "alice@acme.example")).body);
      const reset = await new Client(portal.app, { islandsHeader: false }).post(
        "/sandbox/reset",
        resetForm(path, "Tabs-Told-Reset-2026!"),
      );
      assert.equal(reset.status, 303, reset.text);
      assert.deepEqual((await asked(here)).body, { ended: "password-reset", detail: loginNotices.passwordReset });
      await signInPageSays(here, loginNotices.passwordReset);
    });

    it("is told requirements 4.5's words when a link sign-in replaced it: a kept copy of the cookie finds its record ended so", async () => {
      const browser = await signIn(portal.app, accounts.victor, portal.code);
      const kept = browser.copy();
      const { uuid } = await sandboxPost(portal.sandboxUrl, "/sandbox/link-login", {
        site: "vendor",
        username: "vince",
      });
      const linked = await browser.post(`/api/auth/vendor-token?uuid=${uuid}`, undefined, {
        [REPLACE_SESSION_HEADER]: "1",
      });
      assert.equal(linked.json().tokenHeld, true, linked.text);
      assert.deepEqual((await asked(kept)).body, { ended: "replaced", detail: errorTexts.sessionExpired });
    });
  });

  describe("a cookie whose record the ledger does not hold (a restart, or one evicted)", () => {
    it("is told requirements 4.5's words: its session is over, and nothing says more", async () => {
      const browser = new Client(portal.app);
      browser.headers = { "sec-fetch-site": "same-origin" };
      const cookie = (await sessionCodec(portal.config)).encode({ sid: randomUUID() });
      browser.cookies.set("__Host-portal-session", decodeURIComponent(cookie));
      assert.deepEqual((await asked(browser)).body, { ended: "revoked", detail: errorTexts.sessionExpired });
      await signInPageSays(browser, errorTexts.sessionExpired);
    });
  });

  describe("a sign-out in another tab", () => {
    it("is told in the sign-out's words to a tab whose ask carried the session's cookie past the sign-out, and the sign-in page says them", async () => {
      const tab = await signIn(portal.app, accounts.vince, portal.code);
      const other = tab.copy(); // the other tab's ask, sent with the cookie before the sign-out's answer came back
      assert.equal((await tab.post("/session/logout")).status, 303);
      assert.deepEqual(await asked(other), {
        status: 401,
        body: { ended: "signed-out", detail: loginTexts.signedOut },
      });
      await signInPageSays(other, loginTexts.signedOut);
    });
  });

  describe("two tabs asking at once", () => {
    const clocked = clockedPortal();

    it("are both told the idle limit ended their session, though the first one's ask ended it before the other's was read", async () => {
      const tab = await signIn(clocked.portal.app, accounts.vince, clocked.portal.code);
      const other = tab.copy(); // the same cookie, sent by the other tab before the first one's answer came back
      clocked.now += (IDLE_MINUTES + 1) * MINUTE;
      const idle = { ended: "idle", detail: `${errorTexts.sessionExpired}. ${loginTexts.endedIdle(IDLE_MINUTES)}` };
      assert.deepEqual((await asked(tab)).body, idle);
      assert.deepEqual((await asked(other)).body, idle);
    });
  });

  describe("the words of an ending", () => {
    const config = (idleMinutes: number, maxHours: number) =>
      ({ session: { idleSeconds: idleMinutes * 60, maxSeconds: maxHours * 3600 } }) as Config;
    const words = (reason: EndReason) => endNotice(config(30, 12), reason);

    it("are none exactly for the ends the person chose, but a sign-out, which the other tabs are told in its words", () => {
      for (const reason of endReasons.filter((ended) => ended !== "signed-out"))
        assert.equal(words(reason) === undefined, unannounced(reason), reason);
      assert.equal(words("signed-out"), "You have signed out.");
      assert.equal(words("signed-out"), loginTexts.signedOut);
    });

    it("are requirements 4.5's session-expired message for a session the portal ended without a reason to give", () => {
      for (const reason of ["revoked", "upstream-refused", "code-not-sent", "not-signed-in"] as const)
        assert.equal(words(reason), "Your session has expired. Please Login again", reason);
    });

    it("name the idle limit and the lifetime this portal is configured with, counted by the plural rules", () => {
      assert.equal(endNotice(config(15, 8), "idle"), `${errorTexts.sessionExpired}. ${loginTexts.endedIdle(15)}`);
      assert.equal(
        words("idle"),
        "Your session has expired. Please Login again. It ended after 30 minutes without activity.",
      );
      assert.equal(
        endNotice(config(1, 12), "idle"),
        "Your session has expired. Please Login again. It ended after 1 minute without activity.",
      );
      assert.equal(
        endNotice(config(15, 8), "lifetime"),
        `${errorTexts.sessionExpired}. ${loginNotices.endedLifetime(8)}`,
      );
      assert.equal(
        words("lifetime"),
        "Your session has expired. Please Login again. It ended after 12 hours, the longest a session lasts.",
      );
      assert.equal(
        endNotice(config(30, 1), "lifetime"),
        "Your session has expired. Please Login again. It ended after 1 hour, the longest a session lasts.",
      );
    });

    it("say who ended it when it was another device, a password change or a reset", () => {
      assert.equal(words("ended-elsewhere"), "You were signed out from another device.");
      assert.equal(words("password-changed"), "Your password was changed. Please sign in with your new password.");
      assert.equal(words("password-reset"), "Your password was reset. Please sign in with your new password.");
    });

    it("say why when too many wrong codes or a session too large for the cookie ended it", () => {
      assert.equal(words("mfa-attempts"), mfaTexts.attemptsExhausted);
      assert.equal(words("too-large"), loginNotices.sessionTooLarge);
    });
  });

  describe("the security event of an ending", () => {
    it("is one per way a signed-in session ends, from the one table, written by whoever ends it; a step of signing in or a refusal before a session began writes none", () => {
      const events = endReasons.flatMap((reason) => {
        const event = endEvent(reason);
        return event ? [[reason, event]] : [];
      });
      assert.deepEqual(events, [
        ["signed-out", "sign-out"],
        ["limit", "session-ended.limit"],
        ["ended-elsewhere", "session-ended.by-person"],
        ["password-changed", "session-ended.password-changed"],
        ["password-reset", "session-ended.password-reset"],
        ["idle", "session-ended.idle"],
        ["lifetime", "session-ended.lifetime"],
        ["upstream-refused", "session-ended.upstream-refused"],
      ]);
    });
  });
});

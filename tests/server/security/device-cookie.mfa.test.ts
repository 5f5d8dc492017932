// server/security/device-cookie.ts: an MFA validation carries upstream the id of the browser's device cookie (or a
// fresh id, which the browser keeps as its device cookie once the code passed), never a value the browser sends; so a
// code passed in one browser does not pass silently in another, which is refused and gets a new code (requirements
// 4.2).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { forwardTo, type RecordedCall, startFakeUpstream } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, DEMO_PASSWORD, latestCode, signIn } from "#harness/sign-in.ts";
import { FORGET_DEVICES_PATH } from "#server/loaders/account-view.ts";
import { deviceCookieName } from "#server/security/device-cookie.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";
import { SILENT_CHECK_HEADER } from "#web/protocol/headers.ts";

const alice = accounts.alice;

let portal: RunningPortal;
let DEVICE: string;
describe("server/security/device-cookie, the MFA device", () => {
  before(async () => {
    portal = await startPortalInProcess({
      listen: false,
      inFrontOfSandbox: (sandboxUrl) => startFakeUpstream(forwardTo(sandboxUrl)),
    });
    DEVICE = deviceCookieName(portal.config.cookieSecure);
  });
  after(() => portal.close());

  const code = () => latestCode(portal.sandboxUrl, alice.email);
  const validations = (): RecordedCall[] => portal.upstream?.callsTo(/\/mfa\/validate\//) ?? [];
  const lastValidation = () => validations().at(-1);
  /** The id part of a device cookie's value (`id.mac`). */
  const idOf = (cookie: string | undefined) => cookie?.split(".")[0];

  /** Alice's password step in `client`: her sign-in then waits for its code. */
  async function passwordStep(client: PortalClient): Promise<void> {
    const login = { shortname: alice.shortname, username: alice.username, password: DEMO_PASSWORD };
    const answer = await client.post("/api/auth/client", login);
    assert.equal(answer.json().tokenHeld, true);
  }

  const validate = (client: PortalClient, typed: string, headers: Record<string, string> = {}) =>
    client.request("POST", `/api/web/client/mfa/validate/${typed}`, undefined, headers);

  describe("the device id a validation carries upstream", () => {
    it("is the id of the browser's device cookie for the person, in a header, never in the URL nor one the browser sends", async () => {
      // The device cookie is earned by a passed code, never by a password alone (SECURITY.md): a first sign-in earns it.
      const first = new PortalClient(portal.app);
      await passwordStep(first);
      assert.equal(first.cookies.get(DEVICE), undefined, "a password alone earns no device cookie");
      await first.post("/api/web/client/mfa/generate");
      assert.deepEqual((await validate(first, await code())).json(), [{ text: "Passed" }]);
      const cookie = first.cookies.get(DEVICE);
      assert.ok(cookie, "the browser holds a device cookie");
      // The same browser signs in again: its validation carries the cookie's id, whatever header the browser adds.
      const browser = new PortalClient(portal.app);
      browser.cookies.set(DEVICE, cookie);
      await passwordStep(browser);
      await browser.post("/api/web/client/mfa/generate");
      const typed = await code();
      const verdict = await validate(browser, typed, { "x-device-id": "chosen-by-the-browser-01" });
      assert.deepEqual(verdict.json(), [{ text: "Passed" }]);
      const call = lastValidation();
      assert.equal(call?.headers["x-device-id"], idOf(cookie));
      assert.ok(!call?.path.includes(String(idOf(cookie))), "not in the URL");
    });

    it("is fresh for a browser without a device cookie for the person, which keeps it as one once the code passes", async () => {
      const browser = new PortalClient(portal.app);
      await passwordStep(browser);
      browser.cookies.set(DEVICE, "AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"); // not the portal's
      await browser.post("/api/web/client/mfa/generate");
      const typed = await code();
      await validate(browser, typed);
      const sent = lastValidation()?.headers["x-device-id"];
      assert.match(String(sent), /^[A-Za-z0-9_-]{22}$/);
      assert.notEqual(sent, "AAAAAAAAAAAAAAAAAAAAAA", "a cookie whose MAC does not hold gives no id");
      assert.equal(idOf(browser.cookies.get(DEVICE)), sent, "the browser keeps the id the upstream remembers");
      // Its next sign-in: the stored code passes silently, as the same device.
      await passwordStep(browser);
      assert.deepEqual((await validate(browser, typed)).json(), [{ text: "Passed" }]);
      assert.equal(lastValidation()?.headers["x-device-id"], sent);
    });

    it("a wrong code leaves no device cookie of a fresh id behind", async () => {
      const browser = new PortalClient(portal.app);
      await passwordStep(browser);
      browser.cookies.delete(DEVICE);
      await browser.post("/api/web/client/mfa/generate");
      const typed = await code();
      const wrong = typed === "000000" ? "000001" : "000000";
      const answer = await validate(browser, wrong);
      assert.equal(answer.json()[0].text, "Failed");
      assert.equal(browser.cookies.get(DEVICE), undefined);
    });
  });

  describe("a code passed in one browser, presented by another", () => {
    it("is refused there, and that browser gets a new code generated, which passes; the first browser still passes silently", async () => {
      const first = await signIn(portal.app, alice, () => code());
      const stored = await code(); // what the first browser keeps under mfa-client-alice
      const second = new PortalClient(portal.app);
      await passwordStep(second);
      assert.notEqual(idOf(second.cookies.get(DEVICE)), idOf(first.cookies.get(DEVICE)), "two devices");
      const silent = await validate(second, stored);
      assert.equal(silent.json()[0].text, "Failed", "a code seen on another device does not pass here");
      assert.equal((await second.get("/client/home")).headers.location, "/mfa", "the second browser is not signed in");
      // requirements 4.2: a silent validation that fails generates a new code.
      assert.equal((await second.post("/api/web/client/mfa/generate")).status, 200);
      const fresh = await code();
      assert.deepEqual((await validate(second, fresh)).json(), [{ text: "Passed" }]);
      await passwordStep(first);
      assert.deepEqual((await validate(first, stored)).json(), [{ text: "Passed" }], "the first device is remembered");
    });
  });

  describe("a browser the person forgot (issue 41)", () => {
    const PAGE = "/client/users/change-password";
    const forget = (client: PortalClient, device: string) =>
      client.post(FORGET_DEVICES_PATH, new URLSearchParams({ device, return: PAGE }), {
        "sec-fetch-site": "same-origin",
      });

    it("is a new device upstream: its stored code no longer passes silently, and a typed code trusts it again", async () => {
      const browser = new PortalClient(portal.app);
      await passwordStep(browser);
      await browser.post("/api/web/client/mfa/generate");
      const stored = await code();
      assert.deepEqual((await validate(browser, stored)).json(), [{ text: "Passed" }]);
      const trusted = idOf(browser.cookies.get(DEVICE));
      const page = (await browser.get(PAGE)).text;
      assert.match(page, /Browsers that skip the code/);
      assert.match(page, /This browser/);
      const mine = /name="device" value="([\w-]{22})"/.exec(page)?.[1]; // this browser is listed first
      const forgotten = await forget(browser, String(mine));
      assert.equal(forgotten.status, 303);
      assert.equal(forgotten.headers.location, `${PAGE}?sessions=forgotten-this&count=1#devices`);
      const after = (await browser.get(PAGE)).text;
      assert.ok(
        after.includes("Forgotten. This browser will be asked for a code at its next sign-in."),
        "in plain words, naming this browser as this one",
      );
      assert.ok(!after.includes(`value="${mine}"`), "no longer listed");
      // The next sign-in on this browser: the stored code is refused, since the portal no longer sends its old id.
      await passwordStep(browser);
      assert.equal((await validate(browser, stored)).json()[0].text, "Failed", "asked for a code");
      assert.notEqual(lastValidation()?.headers["x-device-id"], trusted, "the forgotten id is never sent again");
      await browser.post("/api/web/client/mfa/generate");
      assert.deepEqual((await validate(browser, await code())).json(), [{ text: "Passed" }]);
      assert.notEqual(idOf(browser.cookies.get(DEVICE)), trusted, "trusted again under a new id");
    });

    it("its silent check reaches no upstream and costs no attempt: the first typed wrong code leaves 4, the next 3", async () => {
      const silent = { [SILENT_CHECK_HEADER]: "1" };
      const browser = new PortalClient(portal.app);
      await passwordStep(browser);
      await browser.post("/api/web/client/mfa/generate");
      const stored = await code();
      assert.deepEqual((await validate(browser, stored)).json(), [{ text: "Passed" }]);
      // Trusted: its silent check goes upstream as before, and passes.
      await passwordStep(browser);
      const sentBefore = validations().length;
      assert.deepEqual((await validate(browser, stored, silent)).json(), [{ text: "Passed" }]);
      assert.equal(validations().length, sentBefore + 1, "a trusted browser's silent check goes upstream");
      const mine = /name="device" value="([\w-]{22})"/.exec((await browser.get(PAGE)).text)?.[1];
      assert.equal((await forget(browser, String(mine))).status, 303);

      await passwordStep(browser);
      const sent = validations().length;
      assert.deepEqual(
        (await validate(browser, stored, silent)).json(),
        [{ text: "Failed" }],
        "the upstream's verdict",
      );
      // A guess marked as silent from here is no better: it never reaches the upstream either.
      const wrong = stored === "000000" ? "000001" : "000000";
      assert.deepEqual((await validate(browser, wrong, silent)).json(), [{ text: "Failed" }]);
      assert.equal(validations().length, sent, "no silent check of a forgotten browser reaches the upstream");
      await browser.post("/api/web/client/mfa/generate");
      const typed = await validate(browser, wrong);
      assert.equal(validations().length, sent + 1, "a typed code goes upstream");
      assert.deepEqual(typed.json(), [{ text: "Failed", attemptsLeft: 4 }], "the silent checks cost no attempt");
      assert.deepEqual(
        (await validate(browser, wrong)).json(),
        [{ text: "Failed", attemptsLeft: 3 }],
        "typed: counted",
      );
      assert.deepEqual((await validate(browser, await code())).json(), [{ text: "Passed" }]);
    });

    it("forgets only the person's own: a digest from another person's list forgets nothing of theirs", async () => {
      const owner = await signIn(portal.app, alice, () => code());
      const [id] = [...(await owner.get(PAGE)).text.matchAll(/name="device" value="([\w-]{22})"/g)].map((m) => m[1]);
      assert.ok(id, "alice's browser is listed with its digest");
      const gary = await signIn(portal.app, accounts.gary, () => latestCode(portal.sandboxUrl, accounts.gary.email));
      await forget(gary, String(id));
      assert.ok((await owner.get(PAGE)).text.includes(`value="${id}"`), "alice's browser is still trusted");
      // A form another site posts forgets nothing.
      const crossSite = await owner.post(FORGET_DEVICES_PATH, new URLSearchParams({ device: "all", return: PAGE }), {
        "sec-fetch-site": "cross-site",
      });
      assert.equal(crossSite.status, 403);
      assert.ok((await owner.get(PAGE)).text.includes(`value="${id}"`));
    });

    it("a password change forgets every browser of the person", async () => {
      const person = await signIn(portal.app, accounts.globexAlice, () =>
        latestCode(portal.sandboxUrl, accounts.globexAlice.email),
      );
      assert.match((await person.get(PAGE)).text, /name="device" value="[\w-]{22}"/);
      const test = await person.post("/api/web/client/password/test", { userId: "alice", password: DEMO_PASSWORD });
      assert.equal(test.status, 200);
      const changed = await person.post("/api/web/client/password/change", { password: "Another-Fresh-2026!" });
      assert.equal(changed.status, 200);
      const page = (await person.get(PAGE)).text;
      assert.doesNotMatch(page, /name="device" value="[\w-]{22}"/);
      assert.match(page, /No browser skips the code\./);
    });
  });
});

// A code seen on another device: the code one browser keeps after passing MFA (as a shared PC's storage would show
// it) does not sign a second browser in silently; that browser gets a new code mailed and signs in with it, and the
// first browser still passes silently (requirements 4.2: the device memory is the browser's), kept under 3.5's key
// `mfa-client-alice` however the user ID was typed. And the person's: two companies' users of one user ID taking turns
// on one browser never send each other's code (10.11).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { accounts } from "#harness/sign-in.ts";
import { DEMO_PASSWORD } from "#tests/browser/harness.ts";
import {
  browserSuite,
  lastMailId,
  nextCode,
  openLogin,
  signedOutAt,
  signInAs,
  submitLogin,
} from "#tests/browser/steps.ts";

const alice = { site: "client", shortName: "ACME", userName: "alice", password: DEMO_PASSWORD } as const;
const globexAlice = { ...alice, shortName: "GLOBEX" } as const;
const KEY = "mfa-client-alice";

describe("a code seen on another device", () => {
  const suite = browserSuite();

  test("does not pass silently in a second browser: it gets a new code, and the first browser still passes silently", async () => {
    const { url, sandboxUrl } = suite.portal;
    const first = await suite.newPage();
    await signInAs(first, suite.portal, accounts.alice);
    await first.waitForURL(`${url}/client/home`);
    const seen = await first.evaluate((key) => localStorage.getItem(key), KEY);
    assert.match(seen ?? "", /^\d{6}$/, "the first browser keeps the code it passed");

    // A second browser, given the first one's stored code, as if read off a shared PC.
    const second = await suite.newPage();
    await openLogin(second, url);
    await second.evaluate(([key, code]) => localStorage.setItem(key ?? "", code ?? ""), [KEY, seen]);
    const before = await lastMailId(sandboxUrl, accounts.alice.email);
    await submitLogin(second, alice);
    const fresh = await nextCode(sandboxUrl, accounts.alice.email, before); // the failed silent check mails a new one
    await second.getByRole("heading", { name: "Verify This Device" }).waitFor();
    assert.notEqual(new URL(second.url()).pathname, "/client/home", "not signed in by the seen code");
    const home = await second.request.get(`${url}/client/home`, { maxRedirects: 0 });
    assert.equal(home.headers().location, "/mfa", "no section opens: the sign-in waits for its code");
    await second.getByLabel("Code").fill(fresh);
    await second.getByLabel("Code").press("Enter");
    await second.waitForURL(`${url}/client/home`);

    // The first browser's memory is its own: signed out and in again, its stored code passes with no new mail.
    // Its session lives on beside the second browser's: its page has not been told of an end.
    const ended = first.locator(".session-ended");
    assert.ok(!(await ended.isVisible()), `the first browser's page goes on: ${await ended.textContent()}`);
    await first.getByRole("button", { name: "Sign out" }).click();
    await signedOutAt(first, url);
    const mails = await lastMailId(sandboxUrl, accounts.alice.email);
    await openLogin(first, url);
    await submitLogin(first, alice);
    await first.waitForURL(`${url}/client/home`);
    assert.equal(await lastMailId(sandboxUrl, accounts.alice.email), mails, "no new code for the first browser");
  });

  test("is kept under mfa-client-alice for ACME's alice typed as ALICE, passes silently next time, and is never sent for GLOBEX's alice", async () => {
    const { url, sandboxUrl } = suite.portal;
    const page = await suite.newPage();
    const signOut = async () => {
      await page.getByRole("button", { name: "Sign out" }).click();
      await signedOutAt(page, url);
    };
    const typedUpper = { ...alice, userName: "ALICE" } as const;
    const firstMails = await lastMailId(sandboxUrl, accounts.alice.email);
    await openLogin(page, url);
    await submitLogin(page, typedUpper);
    await page.getByLabel("Code").fill(await nextCode(sandboxUrl, accounts.alice.email, firstMails));
    await page.getByLabel("Code").press("Enter");
    await page.waitForURL(`${url}/client/home`);
    const kept = await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("mfa-")));
    assert.deepEqual(kept, [KEY], "the code is under requirements 3.5's key, and no other");
    await signOut();

    // The next sign-in validates the kept code silently: no code is mailed.
    const acmeMails = await lastMailId(sandboxUrl, accounts.alice.email);
    await openLogin(page, url);
    await submitLogin(page, typedUpper);
    await page.waitForURL(`${url}/client/home`, { timeout: 10_000 });
    assert.equal(await lastMailId(sandboxUrl, accounts.alice.email), acmeMails, "no new code for ACME alice");
    await signOut();

    // GLOBEX alice: the kept code is ACME alice's, so it is not sent; a code is mailed at once and she types it.
    const globexMails = await lastMailId(sandboxUrl, accounts.globexAlice.email);
    await openLogin(page, url);
    await submitLogin(page, globexAlice);
    const code = await nextCode(sandboxUrl, accounts.globexAlice.email, globexMails);
    await page.getByLabel("Code").fill(code);
    await page.getByLabel("Code").press("Enter");
    await page.waitForURL(`${url}/client/home`);
    await page.goto(`${url}/client/users/change-password`);
    const activity = page.getByRole("region", { name: "Recent security activity" });
    await activity.getByText("Signed in with password and code").first().waitFor();
    assert.doesNotMatch(
      (await activity.textContent()) ?? "",
      /wrong verification code/i,
      "ACME alice's code was not sent under GLOBEX alice's sign-in",
    );
    assert.equal(await page.evaluate((key) => localStorage.getItem(key), KEY), code, "her own code now takes the key");
  });
});

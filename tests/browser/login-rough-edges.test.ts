// The login page's last rough edges: the cancelled account not offered again, Remember me unchecked but not yet
// submitted, the reset panel keeping the company typed.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { accounts, DEMO_PASSWORD } from "#harness/sign-in.ts";
import { browserSuite, enterCode, lastMailId, openLogin, submitLogin } from "#tests/browser/steps.ts";

const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };

/** What the vendor login form shows. */
const vendorForm = async (page: Page) => ({
  userName: await page.getByLabel("User ID").inputValue(),
  remember: await page.getByLabel("Remember me").isChecked(),
});

describe("the login page's rough edges", () => {
  const suite = browserSuite();
  const url = (path = "/") => `${suite.portal.url}${path}`;

  test("bug 5: 'Use another account' does not bring back the account just cancelled", async () => {
    const page = await suite.newPage();
    // vera signs in with Remember me, then signs out.
    await openLogin(page, suite.portal.url, "/?activeSite=VENDOR");
    const before = await lastMailId(suite.portal.sandboxUrl, accounts.vera.email);
    await page.getByLabel("User ID").fill("vera");
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByLabel("Remember me").check();
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Verify This Device" }).waitFor();
    await enterCode(page, suite.portal.sandboxUrl, accounts.vera.email, before);
    await page.waitForURL(url("/vendor/home"));
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { level: 1, name: "Sign In" }).waitFor();
    await page.waitForSelector(".login-box[data-ready]");
    assert.deepEqual(await vendorForm(page), { userName: "vera", remember: true }, "the device remembers vera");
    // She reaches the MFA step again (this device's code forgotten, so it asks for one), then asks for another account.
    await page.evaluate(() => localStorage.removeItem("mfa-vendor-vera"));
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Verify This Device" }).waitFor();
    await page.getByRole("button", { name: "Use another account" }).click();
    await page.waitForURL(/\/\?activeSite=VENDOR$/);
    await page.waitForSelector(".login-box[data-ready]");
    assert.deepEqual(await vendorForm(page), { userName: "", remember: false }, "ready for another account");
  });

  test("bug 11: unchecking Remember me forgets nothing until a login is accepted", async () => {
    const page = await suite.newPage();
    await openLogin(page, suite.portal.url);
    await page.evaluate(() => localStorage.setItem("vipUserName", "vince"));
    await openLogin(page, suite.portal.url, "/?activeSite=VENDOR");
    assert.deepEqual(await vendorForm(page), { userName: "vince", remember: true });
    await page.getByLabel("Remember me").uncheck();
    await openLogin(page, suite.portal.url, "/?activeSite=VENDOR");
    assert.deepEqual(await vendorForm(page), { userName: "vince", remember: true }, "nothing was submitted");
    // Unchecked and accepted: now the device forgets.
    await page.getByLabel("Remember me").uncheck();
    await submitLogin(page, { site: "vendor", userName: "vince", password: DEMO_PASSWORD });
    await page.getByRole("heading", { level: 1, name: "Verify This Device" }).waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem("vipUserName")), null);
  });

  test("bug 10: the reset panel keeps the company short name typed on the login form, on a phone too", async () => {
    for (const options of [{}, PHONE]) {
      const page = await suite.newPage(options);
      await openLogin(page, suite.portal.url);
      await page.getByLabel("Company Short Name").fill("ACME");
      await page.getByRole("button", { name: "Reset Password" }).click();
      await page.getByRole("heading", { name: "Password Reset" }).waitFor();
      assert.equal(await page.getByLabel("Company Short Name").inputValue(), "ACME");
      assert.equal(await page.getByLabel("Email Address").inputValue(), "");
    }
  });
});

// Signing in as a person does it (requirements 2.2, 2.4, 4.1, 4.2, 5): forms, messages, remember me, MFA by mail.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { accounts } from "#harness/sign-in.ts";
import { DEMO_PASSWORD, screenshot } from "#tests/browser/harness.ts";
import {
  alerts,
  browserSuite,
  enterCode,
  lastMailId,
  nextMail,
  openLogin,
  signInAs,
  submitLogin,
} from "#tests/browser/steps.ts";

describe("sign-in", () => {
  const suite = browserSuite();
  const { newPage } = suite;

  test("a client signs in through MFA to the client home, then again silently on the same device", async () => {
    const page = await newPage();
    await openLogin(page, suite.portal.url);
    await screenshot(page, "login");
    const before = await lastMailId(suite.portal.sandboxUrl, "alice@acme.example");
    await submitLogin(page, { site: "client", shortName: "ACME", userName: "alice", password: DEMO_PASSWORD });
    await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
    assert.ok(await page.getByText("A code has been sent to the email registered to this account.").isVisible());
    assert.ok(await page.getByText('click "Send Again" to receive a new one.').isVisible());
    const code = page.getByLabel("Code");
    assert.equal(await code.getAttribute("placeholder"), "________");
    assert.equal(await code.getAttribute("maxlength"), "8");
    assert.equal(await code.getAttribute("autocomplete"), "one-time-code");
    await screenshot(page, "mfa");

    // A wrong code first: the manual failure message, and the step stays.
    await code.fill("000000");
    await page.getByRole("button", { name: "Submit Code" }).click();
    await page.getByText("Incorrect. Please try again with the most recent code.").waitFor();

    await enterCode(page, suite.portal.sandboxUrl, "alice@acme.example", before);
    await page.waitForURL(`${suite.portal.url}/client/home`);
    const stored = await page.evaluate(() => localStorage.getItem("mfa-client-alice"));
    assert.match(stored ?? "", /^\d{6}$/);
    assert.equal(await page.evaluate(() => localStorage.getItem("token")), null, "the token never reaches the browser");

    // Signed out, then in again: the stored device code passes silently and no new code is mailed.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${suite.portal.url}/?signed-out`);
    await page.getByText("You have signed out.").waitFor();
    const mailsBefore = await lastMailId(suite.portal.sandboxUrl, "alice@acme.example");
    await openLogin(page, suite.portal.url);
    await submitLogin(page, { site: "client", shortName: "ACME", userName: "alice", password: DEMO_PASSWORD });
    await page.waitForURL(`${suite.portal.url}/client/home`);
    assert.equal(await lastMailId(suite.portal.sandboxUrl, "alice@acme.example"), mailsBefore);
  });

  test("the login page is usable at 360 px: no sideways scrolling, the form reachable", async () => {
    const page = await newPage({ viewport: { width: 360, height: 740 } });
    await openLogin(page, suite.portal.url);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360));
    await page.getByRole("button", { name: "Login", exact: true }).scrollIntoViewIfNeeded();
    assert.ok(await page.getByRole("button", { name: "Login", exact: true }).isVisible());
    await screenshot(page, "login-360");
  });

  test("dark mode follows the system", async () => {
    const page = await newPage({ colorScheme: "dark" });
    await openLogin(page, suite.portal.url);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.notEqual(background, "rgb(255, 255, 255)");
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await page.getByRole("alert").waitFor();
    await screenshot(page, "login-dark");
  });

  test("a vendor signs in through MFA to the vendor home", async () => {
    const page = await newPage();
    await signInAs(page, suite.portal, accounts.vera);
    await page.waitForURL(`${suite.portal.url}/vendor/home`);
  });

  test("the /mfa route shows the same step for a held token", async () => {
    const page = await newPage();
    const email = "vince@vendor.example";
    const before = await lastMailId(suite.portal.sandboxUrl, email);
    await openLogin(page, suite.portal.url);
    await submitLogin(page, { site: "vendor", userName: "vince", password: DEMO_PASSWORD });
    await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
    await nextMail(suite.portal.sandboxUrl, email, before);
    const sent = await lastMailId(suite.portal.sandboxUrl, email);
    await openLogin(page, suite.portal.url, "/mfa");
    await page.getByRole("heading", { name: "Verify This Device", level: 1 }).waitFor();
    // A reload within the Send Again cooldown sends no new code, so the one received still works.
    await enterCode(page, suite.portal.sandboxUrl, email, before);
    await page.waitForURL(`${suite.portal.url}/vendor/home`);
    assert.equal(await lastMailId(suite.portal.sandboxUrl, email), sent, "#5: the reload sent no second code");
  });

  test("UX #5 a reload within the Send Again window counts down the seconds actually left, not 20 again", async () => {
    const page = await newPage();
    await openLogin(page, suite.portal.url);
    await submitLogin(page, { site: "vendor", userName: "petra", password: DEMO_PASSWORD });
    await page.getByRole("button", { name: "Send Again (20s)" }).waitFor();
    const sentAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 6000));
    for (const path of ["/", "/mfa"]) {
      const generated = page.waitForResponse((response) => response.url().includes("/mfa/generate"));
      await openLogin(page, suite.portal.url, path);
      await generated;
      const sendAgain = page.getByRole("button", { name: /^Send Again \(\d+s\)$/ });
      await sendAgain.waitFor();
      const shown = Number(/\((\d+)s\)/.exec((await sendAgain.textContent()) ?? "")?.[1]);
      const left = 20 - Math.floor((Date.now() - sentAt) / 1000);
      assert.ok(shown <= left + 1 && shown >= left - 2, `${path}: ${shown}s shown, about ${left}s left`);
      assert.ok(await sendAgain.isDisabled());
    }
  });

  test("the site toggle honours activeSite and is disabled while a token is held, also after a reload", async () => {
    const page = await newPage();
    await openLogin(page, suite.portal.url, "/?activeSite=VENDOR");
    assert.equal(await page.getByRole("tab", { name: "VENDOR LOGIN" }).getAttribute("aria-selected"), "true");
    assert.equal(await page.getByLabel("Company Short Name").count(), 0);
    // The tablist's keys: arrows move to the other tab and select it, Home and End to the first and last.
    await page.getByRole("tab", { name: "VENDOR LOGIN" }).press("ArrowRight");
    assert.equal(await page.getByRole("tab", { name: "CLIENT LOGIN" }).getAttribute("aria-selected"), "true");
    assert.ok(await page.getByRole("tab", { name: "CLIENT LOGIN" }).evaluate((tab) => tab === document.activeElement));
    await page.keyboard.press("End");
    assert.equal(await page.getByRole("tab", { name: "VENDOR LOGIN" }).getAttribute("aria-selected"), "true");
    await submitLogin(page, { site: "vendor", userName: "vince", password: DEMO_PASSWORD });
    await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
    assert.ok(await page.getByRole("tab", { name: "CLIENT LOGIN" }).isDisabled());
    assert.ok(await page.getByRole("tab", { name: "VENDOR LOGIN" }).isDisabled());
    await openLogin(page, suite.portal.url);
    await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
    assert.ok(await page.getByRole("tab", { name: "CLIENT LOGIN" }).isDisabled());
  });

  test("wrong credentials show Invalid Login; a deactivated account names the provider", async () => {
    const page = await newPage();
    await openLogin(page, suite.portal.url);
    await submitLogin(page, { site: "client", shortName: "ACME", userName: "alice", password: "not-the-password" });
    await page.getByText("Invalid Login").waitFor();
    await submitLogin(page, { site: "client", shortName: "ACME", userName: "dora", password: DEMO_PASSWORD });
    const deactivated = `This account has been deactivated. Please contact ${suite.portal.config.providerName} to restore your account.`;
    await page.getByText(deactivated).waitFor();
    assert.match(await alerts(page), /deactivated/);
    await submitLogin(page, { site: "vendor", userName: "dmitri", password: DEMO_PASSWORD });
    await page.getByText(deactivated).waitFor();
    assert.ok(await page.getByRole("tab", { name: "CLIENT LOGIN" }).isEnabled(), "no token is held");
  });

  test("each required field's message shows in the requirements' order", async () => {
    const page = await newPage();
    await openLogin(page, suite.portal.url);
    const submit = page.getByRole("button", { name: "Login", exact: true });
    const expect = async (message: string) => {
      await submit.click();
      await page.getByRole("alert").filter({ hasText: message }).waitFor();
      assert.equal((await alerts(page)).match(/is required\./g)?.length, 1, "only the first failing check shows");
    };
    await expect("Company Short Name is required.");
    await page.getByLabel("Company Short Name").fill("ACME");
    await expect("User ID is required.");
    await page.getByLabel("User ID").fill("alice");
    await expect("Password is required.");
    for (const name of ["Company Short Name", "User ID"]) {
      assert.equal(await page.getByLabel(name).getAttribute("required"), "");
    }

    await page.getByRole("tab", { name: "VENDOR LOGIN" }).click();
    await expect("User ID is required.");
    await page.getByLabel("User ID").fill("vera");
    await expect("Password is required.");
  });

  test("remember me keeps the IDs for the next visit, and a login accepted unchecked forgets them", async () => {
    const page = await newPage();
    await openLogin(page, suite.portal.url);
    const remember = page.getByLabel("Remember me");
    assert.equal(await remember.isChecked(), false);
    await page.getByLabel("Company Short Name").fill("ACME");
    await page.getByLabel("User ID").fill("victor");
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await remember.check();
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
    assert.deepEqual(await page.evaluate(() => [localStorage.getItem("shortName"), localStorage.getItem("userName")]), [
      "ACME",
      "victor",
    ]);

    await page.context().clearCookies(); // a new visit: no session, same device
    await openLogin(page, suite.portal.url);
    assert.equal(await page.getByLabel("Company Short Name").inputValue(), "ACME");
    assert.equal(await page.getByLabel("User ID").inputValue(), "victor");
    assert.ok(await page.getByLabel("Remember me").isChecked());
    await page.getByLabel("Remember me").uncheck();
    // Unchecking alone forgets nothing: a login accepted unchecked does (below, for the vendor).
    assert.equal(await page.evaluate(() => localStorage.getItem("userName")), "victor");

    // Vendor remembers the user ID only, under vipUserName.
    await submitLogin(page, { site: "vendor", userName: "vince", password: DEMO_PASSWORD });
    await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem("vipUserName")), null, "unchecked: not remembered");
    await page.context().clearCookies();
    await openLogin(page, suite.portal.url, "/?activeSite=VENDOR");
    await page.getByLabel("User ID").fill("vince");
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByLabel("Remember me").check();
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem("vipUserName")), "vince");
    await page.context().clearCookies();
    await openLogin(page, suite.portal.url, "/?activeSite=VENDOR");
    assert.equal(await page.getByLabel("User ID").inputValue(), "vince");
    assert.ok(await page.getByLabel("Remember me").isChecked());
    await page.getByRole("tab", { name: "CLIENT LOGIN" }).click();
    // The client's Remember me was unchecked but no client login followed: the device still remembers victor.
    assert.equal(await page.getByLabel("User ID").inputValue(), "victor", "unchecking alone forgot nothing");
  });

  test("Send Again is disabled for 20 s after each generate, with a countdown", async () => {
    const page = await newPage();
    await page.clock.install();
    const email = "gary@globex.example";
    const first = await lastMailId(suite.portal.sandboxUrl, email);
    await openLogin(page, suite.portal.url);
    const loginAt = Date.now();
    await submitLogin(page, { site: "client", shortName: "GLOBEX", userName: "gary", password: DEMO_PASSWORD });
    const sendAgain = page.getByRole("button", { name: /^Send Again/ });
    await page.getByRole("button", { name: "Send Again (20s)" }).waitFor();
    assert.ok(await sendAgain.isDisabled());
    await page.clock.fastForward(10_000);
    await page.getByRole("button", { name: "Send Again (10s)" }).waitFor();
    await page.clock.fastForward(10_000);
    await page.getByRole("button", { name: "Send Again", exact: true }).waitFor();
    assert.ok(await sendAgain.isEnabled());

    const second = await lastMailId(suite.portal.sandboxUrl, email);
    assert.ok(second > first, "opening the step sent a code");
    // The server keeps the same 20 s by its own clock: wait them out for real before asking again.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 22_000 - (Date.now() - loginAt))));
    await sendAgain.click();
    await page.getByRole("button", { name: "Send Again (20s)" }).waitFor();
    await page.getByText("A new code has been sent. Use the code in the newest email.").waitFor();
    await enterCode(page, suite.portal.sandboxUrl, email, second); // the newest code is the one that works
    await page.waitForURL(`${suite.portal.url}/client/home`);
  });
});

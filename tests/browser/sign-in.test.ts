// Signing in as a person does it (requirements 2.2, 2.4, 4.1, 4.2, 5): forms, messages, remember me, MFA by mail.
// Failed requests in section 8's words, "Use another account" and what the device remembers after it, typed values
// kept across tabs and the last site remembered, headings and where the focus goes (and that it shows). The Send
// Again cooldown passes on clocks the tests move (the portal's and the page's), not by waiting.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { accounts } from "#harness/sign-in.ts";
import { clockedBrowserSuite } from "#tests/browser/clocked-suite.ts";
import { DEMO_PASSWORD, screenshot } from "#tests/browser/harness.ts";
import {
  alerts,
  enterCode,
  lastMailId,
  nextMail,
  openLogin,
  signedOutAt,
  signInAs,
  submitLogin,
} from "#tests/browser/steps.ts";
import { errorTexts } from "#web/texts/errors.ts";

/** The id and name of the element that has the focus. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLInputElement | null;
    return `${element?.id ?? ""}|${element?.textContent ?? ""}`;
  });

/** Relative luminance of a CSS `rgb(...)` colour (WCAG 2.1). */
function luminance(colour: string): number {
  const [r = 0, g = 0, b = 0] = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map((value) => {
    const channel = Number(value) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (one: string, two: string) => {
  const [light, dark] = [luminance(one), luminance(two)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

/** What the login form of the page shows: its IDs and Remember me. */
const loginForm = async (page: Page) => ({
  shortName: (await page.getByLabel("Company Short Name").count())
    ? await page.getByLabel("Company Short Name").inputValue()
    : undefined,
  userName: await page.getByLabel("User ID").inputValue(),
  remember: await page.getByLabel("Remember me").isChecked(),
});
/** What this device remembers of the client login (requirements 3's local-storage keys). */
const remembered = (page: Page) =>
  page.evaluate(() => ({ shortName: localStorage.getItem("shortName"), userName: localStorage.getItem("userName") }));

/** From the MFA step: "Use another account", and the login page it leads to. */
async function useAnotherAccount(page: Page): Promise<void> {
  await page.getByRole("heading", { level: 1, name: "Verify This Device" }).waitFor();
  await page.getByRole("button", { name: "Use another account" }).click();
  await page.waitForURL(/\/\?activeSite=CLIENT$/);
  await page.getByRole("heading", { level: 1, name: "Sign In" }).waitFor();
  await page.waitForSelector(".login-box[data-ready]");
}

/** What the vendor login form shows. */
const vendorForm = async (page: Page) => ({
  userName: await page.getByLabel("User ID").inputValue(),
  remember: await page.getByLabel("Remember me").isChecked(),
});

/** The requirements' own texts that say "Login" (2.2's tabs, 2.3's button, 2.6 and 8's messages): they stay as spelled. */
const REQUIREMENTS_LOGIN = [
  /CLIENT LOGIN/g,
  /VENDOR LOGIN/g,
  /Return To Login/g,
  /Invalid Login/g,
  /Login Failed/g,
  /Please Login again/g,
];

/** What a person reads or hears on the page: its tab's title, its visible text and its elements' own labels. */
const everythingSaid = (page: Page) =>
  page.evaluate(() =>
    [
      document.title,
      // biome-ignore lint/performance/useDomNodeTextContent: what shows, without the islands' props or hidden parts
      document.body.innerText,
      ...[...document.querySelectorAll("[aria-label], [title]")].flatMap((element) => [
        element.getAttribute("aria-label") ?? "",
        element.getAttribute("title") ?? "",
      ]),
    ].join("\n"),
  );

describe("sign-in", () => {
  const suite = clockedBrowserSuite();
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
    await signedOutAt(page, suite.portal.url);
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
    await page.getByRole("button", { name: "Sign In", exact: true }).scrollIntoViewIfNeeded();
    assert.ok(await page.getByRole("button", { name: "Sign In", exact: true }).isVisible());
    await screenshot(page, "login-360");
  });

  test("dark mode follows the system", async () => {
    const page = await newPage({ colorScheme: "dark" });
    await openLogin(page, suite.portal.url);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.notEqual(background, "rgb(255, 255, 255)");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.getByRole("alert").waitFor();
    await screenshot(page, "login-dark");
  });

  test("the sign-in path says 'sign in' in its own words, and 'Login' only in the requirements' own texts", async () => {
    const url = (path: string) => `${suite.portal.url}${path}`;
    const said: string[] = [];
    const page = await newPage();
    await openLogin(page, suite.portal.url);
    said.push(await everythingSaid(page));
    await page.getByRole("tab", { name: "VENDOR LOGIN" }).click();
    said.push(await everythingSaid(page));
    await page.getByRole("link", { name: "Reset Password" }).click();
    await page.getByRole("heading", { name: "Password Reset" }).waitFor();
    said.push(await everythingSaid(page));
    await page.getByRole("button", { name: "Return To Login" }).click();
    await submitLogin(page, { site: "vendor", userName: "vince", password: DEMO_PASSWORD });
    await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
    said.push(await everythingSaid(page));
    await openLogin(page, suite.portal.url, "/mfa");
    said.push(await everythingSaid(page));
    await page.getByRole("button", { name: "Use another account" }).click();
    await page.waitForURL(url("/?activeSite=VENDOR"));
    for (const [path, shown] of [
      ["/login?uuid=00000000-0000-4000-8000-000000000000", "Invalid Login"],
      ["/login", "This sign-in link is incomplete"],
      ["/tax-bridge/login", "Tax-bridge sign-in"],
      ["/approval/login", "Sign-in for approvers."],
    ] as const) {
      await page.goto(url(path));
      await page.getByText(shown).waitFor();
      said.push(await everythingSaid(page));
    }
    const own = REQUIREMENTS_LOGIN.reduce((words, text) => words.replace(text, ""), said.join("\n"));
    assert.deepEqual(own.match(/.*\blog ?in.*/gim) ?? [], [], "our own words say sign in");
    assert.match(own, /Sign In/);
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
    assert.equal(await lastMailId(suite.portal.sandboxUrl, email), sent, "the reload sent no second code");
  });

  test("a reload within the Send Again window counts down the seconds actually left, not 20 again", async () => {
    const page = await newPage();
    await openLogin(page, suite.portal.url);
    // The code was sent between the submit and the countdown's showing: the seconds left are counted from each end.
    const submittedAt = suite.now();
    await submitLogin(page, { site: "vendor", userName: "petra", password: DEMO_PASSWORD });
    await page.getByRole("button", { name: "Send Again (20s)" }).waitFor();
    const shownAt = suite.now();
    await suite.pass(page, 6000);
    // The count shown is one of the seconds left between the reload's start and the count's reading: a busy machine
    // may take seconds between the two.
    const leftSince = (sent: number) => 20 - (suite.now() - sent) / 1000;
    for (const path of ["/", "/mfa"]) {
      const atMost = Math.ceil(leftSince(shownAt));
      const generated = page.waitForResponse((response) => response.url().includes("/mfa/generate"));
      await openLogin(page, suite.portal.url, path);
      await generated;
      const sendAgain = page.getByRole("button", { name: /^Send Again \(\d+s\)$/ });
      await sendAgain.waitFor();
      const shown = Number(/\((\d+)s\)/.exec((await sendAgain.textContent()) ?? "")?.[1]);
      const atLeast = Math.floor(leftSince(submittedAt)) - 1;
      assert.ok(shown <= atMost && shown >= atLeast, `${path}: ${shown}s shown, between ${atLeast} and ${atMost} left`);
      assert.ok(await sendAgain.isDisabled());
    }
  });

  test("Space activates a focused sign-in tab without scrolling the page, and Escape leaves the reset panel, the focus back on its link", async () => {
    const page = await newPage({ viewport: { width: 360, height: 400 } });
    await openLogin(page, suite.portal.url);
    const vendor = page.getByRole("tab", { name: "VENDOR LOGIN" });
    await vendor.focus(); // as a screen reader's cursor may, without selecting it
    const scrolled = await page.evaluate(() => window.scrollY);
    await page.keyboard.press("Space");
    assert.equal(await vendor.getAttribute("aria-selected"), "true", "Space activates the tab");
    assert.equal(await page.evaluate(() => window.scrollY), scrolled, "and does not scroll the page");
    await page.getByRole("link", { name: "Reset Password" }).click();
    await page.getByRole("heading", { name: "Password Reset" }).waitFor();
    await page.getByLabel("Email Address").press("Escape");
    await page.getByRole("button", { name: "Sign In", exact: true }).waitFor();
    assert.equal(await page.getByRole("heading", { name: "Password Reset" }).count(), 0, "the panel is left");
    const opener = page.getByRole("link", { name: "Reset Password" });
    await page.waitForFunction(() => document.activeElement !== document.body, undefined, { timeout: 2_000 });
    assert.ok(await opener.evaluate((link) => link === document.activeElement), "the focus is back on what opened it");
    // Return To Login, by the keyboard, gives it back there too.
    await opener.press("Enter");
    await page.getByRole("button", { name: "Return To Login" }).press("Enter");
    await page.getByRole("button", { name: "Sign In", exact: true }).waitFor();
    assert.ok(await opener.evaluate((link) => link === document.activeElement), "and after Return To Login");
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
    const submit = page.getByRole("button", { name: "Sign In", exact: true });
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
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
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
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
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
    const email = "gary@globex.example";
    const first = await lastMailId(suite.portal.sandboxUrl, email);
    await openLogin(page, suite.portal.url);
    const loginAt = suite.now();
    await submitLogin(page, { site: "client", shortName: "GLOBEX", userName: "gary", password: DEMO_PASSWORD });
    const sendAgain = page.getByRole("button", { name: /^Send Again/ });
    await page.getByRole("button", { name: "Send Again (20s)" }).waitFor();
    assert.ok(await sendAgain.isDisabled());
    await suite.pass(page, 10_000);
    // The page's clock also runs with real time, which a busy machine may have moved on by a second or more.
    await page.getByRole("button", { name: /^Send Again \(([1-9]|10)s\)$/ }).waitFor();
    await suite.pass(page, 10_000);
    await page.getByRole("button", { name: "Send Again", exact: true }).waitFor();
    assert.ok(await sendAgain.isEnabled());

    const second = await lastMailId(suite.portal.sandboxUrl, email);
    assert.ok(second > first, "opening the step sent a code");
    // The server keeps the same 20 s by its own clock: let them pass there too before asking again.
    await suite.pass(page, Math.max(0, 22_000 - (suite.now() - loginAt)));
    await sendAgain.click();
    await page.getByRole("button", { name: "Send Again (20s)" }).waitFor();
    await page.getByText("A new code has been sent. Use the code in the newest email.").waitFor();
    await enterCode(page, suite.portal.sandboxUrl, email, second); // the newest code is the one that works
    await page.waitForURL(`${suite.portal.url}/client/home`);
  });

  test("'Use another account' does not bring back the account just cancelled", async () => {
    const page = await suite.newPage();
    // vera signs in with Remember me, then signs out.
    await openLogin(page, suite.portal.url, "/?activeSite=VENDOR");
    const before = await lastMailId(suite.portal.sandboxUrl, accounts.vera.email);
    await page.getByLabel("User ID").fill("vera");
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByLabel("Remember me").check();
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Verify This Device" }).waitFor();
    await enterCode(page, suite.portal.sandboxUrl, accounts.vera.email, before);
    await page.waitForURL(`${suite.portal.url}/vendor/home`);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { level: 1, name: "Sign In" }).waitFor();
    await page.waitForSelector(".login-box[data-ready]");
    assert.deepEqual(await vendorForm(page), { userName: "vera", remember: true }, "the device remembers vera");
    // She reaches the MFA step again (this device's code forgotten, so it asks for one), then asks for another account.
    await page.evaluate(() => localStorage.removeItem("mfa-vendor-vera"));
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Verify This Device" }).waitFor();
    await page.getByRole("button", { name: "Use another account" }).click();
    await page.waitForURL(/\/\?activeSite=VENDOR$/);
    await page.waitForSelector(".login-box[data-ready]");
    assert.deepEqual(await vendorForm(page), { userName: "", remember: false }, "ready for another account");
  });

  test("unchecking Remember me forgets nothing until a login is accepted", async () => {
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

  test("a request that gets no answer shows section 8's 'Action Failed', not the browser's 'Failed to fetch'", async () => {
    const page = await newPage();
    await openLogin(page, suite.portal.url);
    await page.route("**/api/auth/client", (route) => route.abort("internetdisconnected"));
    await submitLogin(page, { site: "client", shortName: "ACME", userName: "alice", password: DEMO_PASSWORD });
    await page.getByRole("alert").filter({ hasText: "Action Failed" }).waitFor();
    assert.doesNotMatch(await alerts(page), /fetch/i);
    // The focus moved to the message, so it is read first.
    assert.match(await focused(page), /Action Failed/);
    assert.ok((await alerts(page)).includes(`Action Failed. ${errorTexts.outage}`), "and says it was no typing error");
    // An upstream that answers 5xx is worded the same, and what was typed stays.
    await page.unroute("**/api/auth/client");
    await page.route("**/api/auth/client", (route) => route.fulfill({ status: 502, body: "" }));
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: errorTexts.outage }).waitFor();
    assert.equal(await page.getByLabel("User ID").inputValue(), "alice");
  });

  test("'Use another account' ends the pending sign-in: the tabs work again", async () => {
    const page = await newPage();
    await openLogin(page, suite.portal.url);
    await submitLogin(page, { site: "client", shortName: "GLOBEX", userName: "gary", password: DEMO_PASSWORD });
    await page.getByRole("heading", { level: 1, name: "Verify This Device" }).waitFor();
    assert.ok(await page.getByRole("tab", { name: "VENDOR LOGIN" }).isDisabled());
    await page.getByRole("button", { name: "Use another account" }).click();
    await page.waitForURL(/\/(\?.*)?$/);
    await openLogin(page, suite.portal.url);
    assert.ok(await page.getByRole("tab", { name: "VENDOR LOGIN" }).isEnabled());
    await page.getByRole("heading", { level: 1, name: "Sign In" }).waitFor();
    assert.equal(await page.getByRole("heading", { name: "Verify This Device" }).count(), 0);
  });

  test("'Invalid Login', focused after a refused login, shows a focus ring in the colour of a focused field, in light and dark", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      const page = await newPage({ colorScheme });
      await openLogin(page, suite.portal.url);
      // Submitted with the mouse: the browser draws no ring of its own for a focus that follows a click.
      await submitLogin(page, { site: "client", shortName: "ACME", userName: "alice", password: "not-the-password" });
      // The message itself (the page's body holds its words too, and has the focus until the message takes it).
      await page.waitForFunction(() =>
        document.activeElement?.closest(".note")?.textContent?.includes("Invalid Login"),
      );
      const ring = await page.evaluate(() => {
        const note = document.activeElement?.closest(".note");
        const field = document.querySelector<HTMLInputElement>("#login-client-userName");
        if (!note || !field) return undefined;
        const style = getComputedStyle(note);
        const around = getComputedStyle(note.closest("article") ?? document.body).backgroundColor;
        // What a focused field of the site is drawn with (Pico's --pico-form-element-focus-color, ours: tertiary).
        const probe = document.createElement("span");
        probe.style.color = "var(--pico-form-element-focus-color)";
        field.after(probe);
        const fieldFocus = getComputedStyle(probe).color;
        probe.remove();
        return {
          style: style.outlineStyle,
          width: Number.parseFloat(style.outlineWidth),
          colour: style.outlineColor,
          around,
          fieldFocus,
        };
      });
      assert.ok(ring, "the focus is on a message");
      assert.equal(ring.style, "solid", `${colorScheme}: a ring is drawn`);
      assert.ok(ring.width >= 2, `${colorScheme}: at least 2 px wide (${ring.width})`);
      assert.equal(ring.colour, ring.fieldFocus, `${colorScheme}: the colour of a focused field`);
      const ratio = contrast(ring.colour, ring.around);
      assert.ok(ratio >= 3, `${colorScheme}: the ring stands out from the card behind it, ${ratio.toFixed(2)}:1`);
      await screenshot(page, `invalid-login-focus-${colorScheme}`);
    }
  });

  test("'Use another account' leaves what the device remembers as it was: the cancelled account is not remembered, the one remembered before stays", async () => {
    // A device that remembers victor: the form opens with his IDs and Remember me checked (requirements 5).
    const page = await newPage();
    await openLogin(page, suite.portal.url);
    await page.evaluate(() => {
      localStorage.setItem("shortName", "ACME");
      localStorage.setItem("userName", "victor");
    });
    await openLogin(page, suite.portal.url);
    assert.deepEqual(await loginForm(page), { shortName: "ACME", userName: "victor", remember: true });
    // Someone else signs in on it, Remember me left checked, then cancels at the code.
    await page.getByLabel("User ID").fill("alice");
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await useAnotherAccount(page);
    assert.deepEqual(await remembered(page), { shortName: "ACME", userName: "victor" }, "victor is still remembered");
    assert.deepEqual(await loginForm(page), { shortName: "ACME", userName: "victor", remember: true });

    // A device that remembers nobody: Remember me checked for alice, then cancelled. The form is ready for another
    // account, as on any visit to a device that remembers nobody, and alice is not remembered.
    const fresh = await newPage();
    await openLogin(fresh, suite.portal.url);
    await fresh.getByLabel("Company Short Name").fill("ACME");
    await fresh.getByLabel("User ID").fill("alice");
    await fresh.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await fresh.getByLabel("Remember me").check();
    await fresh.getByRole("button", { name: "Sign In", exact: true }).click();
    await fresh.getByRole("heading", { level: 1, name: "Verify This Device" }).waitFor();
    // Reloaded while the code is awaited, then cancelled: the same.
    await openLogin(fresh, suite.portal.url);
    await useAnotherAccount(fresh);
    assert.deepEqual(await remembered(fresh), { shortName: null, userName: null }, "alice is not remembered");
    assert.deepEqual(await loginForm(fresh), { shortName: "", userName: "", remember: false });
    assert.match(await focused(fresh), /^login-client-shortName\|/, "the first empty field has the focus");

    // A sign-in carried through to the end is remembered, as before.
    const mailBefore = await lastMailId(suite.portal.sandboxUrl, accounts.gary.email);
    await fresh.getByLabel("Company Short Name").fill("GLOBEX");
    await fresh.getByLabel("User ID").fill("gary");
    await fresh.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await fresh.getByLabel("Remember me").check();
    await fresh.getByRole("button", { name: "Sign In", exact: true }).click();
    await fresh.getByRole("heading", { level: 1, name: "Verify This Device" }).waitFor();
    await enterCode(fresh, suite.portal.sandboxUrl, accounts.gary.email, mailBefore);
    await fresh.waitForURL(`${suite.portal.url}/client/home`);
    assert.deepEqual(await remembered(fresh), { shortName: "GLOBEX", userName: "gary" });
  });

  test("switching CLIENT → VENDOR → CLIENT keeps what was typed; after a vendor signs out the page opens on VENDOR", async () => {
    const page = await newPage();
    await openLogin(page, suite.portal.url);
    await page.getByLabel("Company Short Name").fill("ACME");
    await page.getByLabel("User ID").fill("alice");
    await page.getByLabel("Password", { exact: true }).fill("typed");
    await page.getByRole("tab", { name: "VENDOR LOGIN" }).click();
    await page.getByLabel("User ID").fill("vera");
    await page.getByRole("tab", { name: "CLIENT LOGIN" }).click();
    assert.equal(await page.getByLabel("Company Short Name").inputValue(), "ACME");
    assert.equal(await page.getByLabel("User ID").inputValue(), "alice");
    assert.equal(await page.getByLabel("Password", { exact: true }).inputValue(), "typed");
    await page.getByRole("tab", { name: "VENDOR LOGIN" }).click();
    assert.equal(await page.getByLabel("User ID").inputValue(), "vera");

    await signInAs(page, suite.portal, accounts.vera);
    await page.waitForURL(`${suite.portal.url}/vendor/home`);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByText("You have signed out.").waitFor();
    await openLogin(page, suite.portal.url);
    assert.equal(await page.getByRole("tab", { name: "VENDOR LOGIN" }).getAttribute("aria-selected"), "true");
    assert.equal(await page.getByLabel("Company Short Name").count(), 0);
    // Navigation state still wins over the remembered site.
    await openLogin(page, suite.portal.url, "/?activeSite=CLIENT");
    assert.equal(await page.getByRole("tab", { name: "CLIENT LOGIN" }).getAttribute("aria-selected"), "true");
  });

  test("each screen has a visible h1, the first empty field has the focus, the reset panel takes it when it opens", async () => {
    const page = await newPage();
    await openLogin(page, suite.portal.url);
    assert.ok(await page.getByRole("heading", { level: 1, name: "Sign In" }).isVisible());
    assert.match(await focused(page), /^login-client-shortName\|/);
    await page.getByRole("link", { name: "Reset Password" }).click();
    await page.getByRole("heading", { level: 1, name: "Password Reset" }).waitFor();
    await page.waitForFunction(() => document.activeElement?.id === "reset-client-short-name");
    await page.getByRole("button", { name: "Return To Login" }).click();

    // Show password, as on the change-password form.
    await page.getByLabel("Password", { exact: true }).fill("secret");
    await page.getByLabel("Show password").check();
    assert.equal(await page.getByLabel("Password", { exact: true }).getAttribute("type"), "text");

    // After a refused login the message has the focus.
    await submitLogin(page, { site: "client", shortName: "ACME", userName: "alice", password: "not-the-password" });
    await page.getByRole("alert").filter({ hasText: "Invalid Login" }).waitFor();
    await page.waitForFunction(() => document.activeElement?.textContent?.includes("Invalid Login"));

    // The MFA step puts the focus in its code field once the code is on its way.
    await submitLogin(page, { site: "vendor", userName: "vince", password: DEMO_PASSWORD });
    await page.getByRole("heading", { level: 1, name: "Verify This Device" }).waitFor();
    await page.waitForFunction(() => document.activeElement?.id === "mfa-code");
  });
});

// Accessibility in the browser: every screen of the sign-in path and of the section layouts passes axe-core's WCAG 2.1
// A and AA rules in light and dark; signing in works with the keyboard alone; errors are announced. The key screens
// are also photographed for the README (scripts/readme-screenshots.ts copies them into docs/screenshots/).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Locator, Page } from "playwright-core";
import { accounts } from "#harness/sign-in.ts";
import { DEMO_PASSWORD, readmeScreenshot } from "#tests/browser/harness.ts";
import {
  browserSuite,
  expireWhileVerifying,
  hydrated,
  type Login,
  lastMailId,
  nextCode,
  nextMail,
  openLogin,
  openResetLink,
  reachCode,
  setNewPassword,
  signIn,
  submitLogin,
} from "#tests/browser/steps.ts";
import { assertAccessible, COLOR_SCHEMES, settled } from "#tests/support/axe.ts";
import { backgroundsUnder, composite, contrast, focusRing } from "#tests/support/colours.ts";
import { layoutTexts } from "#web/texts/layout.ts";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 360, height: 740 };

const alice: Login = { site: "client", shortName: "ACME", userName: "alice", password: DEMO_PASSWORD };
const vera: Login = { site: "vendor", userName: "vera", password: DEMO_PASSWORD };
const vince: Login = { site: "vendor", userName: "vince", password: DEMO_PASSWORD };
const paula: Login = { site: "client", shortName: "ACME", userName: "paula", password: DEMO_PASSWORD };

/**
 * A README screen: checked and photographed on a desktop and on a phone, in light and dark, as
 * `<name>-<scheme>-<device>.png`. The page is left at the desktop size, in light.
 */
async function checkForReadme(page: Page, screen: string, name: string): Promise<void> {
  for (const [device, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await assertAccessible(page, `${screen}, ${device}`, (scheme) =>
      readmeScreenshot(page, `${name}-${scheme}-${device}`),
    );
  }
  await page.setViewportSize(DESKTOP);
}

/** The accessible name of the focused element: its label's text, or its own text. */
async function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!(element instanceof HTMLElement)) return "";
    const label = element.getAttribute("aria-label") ?? (element as HTMLInputElement).labels?.[0]?.textContent;
    return (label ?? element.textContent ?? "").trim();
  });
}

/** Presses Tab (or Shift+Tab) until the element named `name` has focus, returning the names passed on the way. */
async function tabTo(page: Page, name: string, key: "Tab" | "Shift+Tab" = "Tab"): Promise<string[]> {
  const passed: string[] = [];
  for (let step = 0; step < 20; step++) {
    await page.keyboard.press(key);
    const focused = await focusedName(page);
    passed.push(focused);
    if (focused === name) return passed;
  }
  throw new Error(`${name} was not reached with ${key}; passed ${passed.join(", ")}`);
}

/**
 * Gives the element the focus as the keyboard does, then checks in light and dark that its ring stands at least 3:1
 * from the colour it is drawn on (WCAG 1.4.11), measured from the computed styles.
 */
async function assertFocusRing(page: Page, element: Locator, name: string): Promise<void> {
  for (const colorScheme of COLOR_SCHEMES) {
    await page.emulateMedia({ colorScheme });
    await page.keyboard.press("Shift");
    await element.focus();
    await settled(page);
    assert.ok(await element.evaluate((focused) => focused.matches(":focus-visible")), `${name} has the focus`);
    const ring = await focusRing(element);
    const under = composite(await backgroundsUnder(element));
    assert.ok(ring, `${name} (${colorScheme}) shows a ring`);
    const ratio = contrast(composite([under, ring]), under);
    assert.ok(ratio >= 3, `${name} (${colorScheme}): a ring of ${ratio.toFixed(2)}:1 on ${under.map(Math.round)}`);
  }
  await page.emulateMedia({ colorScheme: "light" });
}

describe("accessibility", () => {
  const suite = browserSuite({}, { viewport: DESKTOP });
  const { newPage } = suite;
  const url = (path: string) => `${suite.portal.url}${path}`;

  test("the login page passes for clients and vendors, with each kind of error, and the reset panel", async () => {
    const page = await newPage();
    await openLogin(page, suite.portal.url);
    await checkForReadme(page, "client login", "sign-in");

    const submit = page.getByRole("button", { name: "Sign In", exact: true });
    await submit.click();
    await page.getByRole("alert").filter({ hasText: "Company Short Name is required." }).waitFor();
    await assertAccessible(page, "client login, a required field missing");
    await submitLogin(page, { ...alice, password: "not-the-password" });
    await page.getByRole("alert").filter({ hasText: "Invalid Login" }).waitFor();
    await assertAccessible(page, "client login, Invalid Login");

    await page.getByRole("tab", { name: "VENDOR LOGIN" }).click();
    await assertAccessible(page, "vendor login");
    await submitLogin(page, { site: "vendor", userName: "dmitri", password: DEMO_PASSWORD });
    await page.getByRole("alert").filter({ hasText: "deactivated" }).waitFor();
    await assertAccessible(page, "vendor login, deactivated");

    await page.getByRole("link", { name: "Reset Password" }).click();
    await page.getByRole("heading", { name: "Password Reset" }).waitFor();
    await assertAccessible(page, "vendor reset panel");
    await page.getByRole("tab", { name: "CLIENT LOGIN" }).click();
    await page.getByLabel("Company Short Name").fill("G".repeat(300)); // longer than the upstream accepts
    await page.getByLabel("Email Address").fill("gary@globex.example");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.getByRole("alert").waitFor();
    await assertAccessible(page, "client reset panel, a failed request");
    const before = await lastMailId(suite.portal.sandboxUrl, "gary@globex.example");
    await page.getByLabel("Company Short Name").fill("GLOBEX");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.getByText("If there is an account associated with the email you've entered").waitFor();
    await assertAccessible(page, "reset panel, request sent");

    // The sandbox's page that the mailed link opens, as it first shows and with a refused password.
    await openResetLink(page, suite.portal.url, await nextMail(suite.portal.sandboxUrl, "gary@globex.example", before));
    await assertAccessible(page, "sandbox reset page");
    await setNewPassword(page, "Set New Password", "too-short");
    await page.getByRole("alert").waitFor();
    await assertAccessible(page, "sandbox reset page, a refused password");
  });

  test("the MFA step passes, with a wrong code's message, and on its own route", async () => {
    const page = await newPage();
    await openLogin(page, suite.portal.url);
    await submitLogin(page, alice);
    await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
    await page.getByRole("button", { name: /^Send Again/ }).waitFor();
    await checkForReadme(page, "MFA step", "mfa");
    await page.getByLabel("Code").fill("000000");
    await page.getByRole("button", { name: "Submit Code" }).click();
    await page.getByRole("alert").filter({ hasText: "Incorrect." }).waitFor();
    await assertAccessible(page, "MFA step, a wrong code");

    const held = await newPage();
    await openLogin(held, suite.portal.url);
    await submitLogin(held, vince);
    await held.getByRole("heading", { name: "Verify This Device" }).waitFor();
    await openLogin(held, suite.portal.url, "/mfa");
    await held.getByRole("button", { name: /^Send Again/ }).waitFor();
    await assertAccessible(held, "the /mfa route");
  });

  test("the expired-password flow passes: the change-password form inside the MFA step, with its messages", async () => {
    const page = await newPage();
    await signIn(page, suite.portal.url, suite.portal.sandboxUrl, paula, "paula@acme.example");
    await page.getByText("Your password has expired. Please enter a new password").waitFor();
    await assertAccessible(page, "expired password");
    await page.getByLabel("New Password").fill("Fresh-Start-2026!");
    await page.getByLabel("Confirm Password").fill("Fresh-Start-2027!");
    await page.getByRole("button", { name: "Change Password" }).click();
    await page.getByRole("alert").filter({ hasText: "New and confirm password do not match." }).waitFor();
    await assertAccessible(page, "expired password, a mismatch");
  });

  test("the sign-in page's notices pass: signed out, and session expired", async () => {
    const page = await newPage();
    await signIn(page, suite.portal.url, suite.portal.sandboxUrl, vera, "vera@vendor.example");
    await page.waitForURL(url("/vendor/home"));
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByText("You have signed out.").waitFor();
    await hydrated(page);
    await assertAccessible(page, "signed out");

    const expired = await newPage();
    await expireWhileVerifying(expired, suite.portal, accounts.vince);
    await assertAccessible(expired, "session expired");
  });

  test("the link-login page passes, while it signs in and when the link is bad", async () => {
    const page = await newPage();
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    // The link's call is held until the busy state has been checked.
    await page.route("**/api/auth/vendor-token**", async (route) => {
      await answered;
      await route.continue();
    });
    await page.goto(url("/login?uuid=00000000-0000-4000-8000-000000000000&type=Vendor"));
    await page.getByRole("status").filter({ hasText: "Authenticating..." }).waitFor();
    await assertAccessible(page, "link login, authenticating");
    answer();
    await page.getByText("Invalid Login").waitFor();
    await assertAccessible(page, "link login, Invalid Login");
  });

  test("a client's sections pass: client pages, uspto, uscis, another audience's forbidden page, not found", async () => {
    const page = await suite.signedInPage(accounts.alice);
    await checkForReadme(page, "client home", "client-home");
    await page.goto(url("/client/invoices/status"));
    await checkForReadme(page, "client section", "client-section");

    await page.setViewportSize(PHONE);
    await page.getByText("Menu", { exact: true }).click();
    await page.getByRole("link", { name: "Invoice Status" }).waitFor();
    await assertAccessible(page, "client section, the menu open on a phone");
    await page.setViewportSize(DESKTOP);

    await page.goto(url("/client/docs/bank-holidays"));
    await assertAccessible(page, "client document page");
    await page.goto(url("/client/users/change-password"));
    await hydrated(page);
    await assertAccessible(page, "client change password");
    for (const [path, heading] of [
      ["/uspto/home", "Patent Fees"],
      ["/uscis/home", "Immigration Fees"],
      ["/vendor/home", "You Do Not Have Access To That Page"],
      ["/client/no-such-page", "The Page You Requested Could Not Be Found"],
    ] as const) {
      await page.goto(url(path));
      await page.getByRole("heading", { level: 1, name: heading }).waitFor();
      await assertAccessible(page, path);
    }
  });

  test("the vendor section passes, with its forbidden and not-found pages", async () => {
    const page = await suite.signedInPage(accounts.vera);
    await assertAccessible(page, "vendor home");
    await page.goto(url("/vendor/reports/payments-received"));
    await checkForReadme(page, "vendor section", "vendor-section");

    const limited = await suite.signedInPage(accounts.vince);
    const forbidden = await limited.goto(url("/vendor/invoice/entry"));
    assert.equal(forbidden?.status(), 403);
    await assertAccessible(limited, "vendor forbidden page");
    const notFound = await limited.goto(url("/vendor/no-such-page"));
    assert.equal(notFound?.status(), 404);
    await assertAccessible(limited, "vendor not-found page");
  });

  test("a client signs in with the keyboard alone: Tab, Shift+Tab, typing and Enter, through the MFA code", async () => {
    const page = await newPage();
    const before = await lastMailId(suite.portal.sandboxUrl, "alice@acme.example");
    await openLogin(page, suite.portal.url);

    // The first empty field has the focus on load; behind it, the tabs, the brand and the skip link, which leads to
    // the content; from there the login form, in reading order.
    assert.equal(await focusedName(page), "Company Short Name");
    assert.deepEqual(await tabTo(page, "Skip to content", "Shift+Tab"), [
      "CLIENT LOGIN",
      layoutTexts.brand,
      "Skip to content",
    ]);
    await page.keyboard.press("Enter");
    const order = [
      "CLIENT LOGIN",
      "Company Short Name",
      "User ID",
      "Password",
      "Remember me",
      "Show password",
      "Sign In",
    ];
    assert.deepEqual(await tabTo(page, "Sign In"), order);
    assert.deepEqual(await tabTo(page, "Company Short Name", "Shift+Tab"), order.slice(1, -1).reverse());

    // Enter on an incomplete form names the first missing field and moves the focus to it.
    await page.keyboard.type("ACME");
    await tabTo(page, "User ID");
    await page.keyboard.type("alice");
    await page.keyboard.press("Enter");
    await page.getByRole("alert").filter({ hasText: "Password is required." }).waitFor();
    assert.equal(await focusedName(page), "Password");
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press("Enter");

    // The MFA step takes the focus in its code field once the code is on its way.
    await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
    await page.waitForFunction(() => document.activeElement?.id === "mfa-code");
    await page.keyboard.type(await nextCode(suite.portal.sandboxUrl, "alice@acme.example", before));
    await page.keyboard.press("Enter");
    await page.waitForURL(url("/client/home"));
    await page.getByRole("heading", { level: 1, name: "Home" }).waitFor();
  });

  test("errors are announced: the islands' error region is live before the error and holds its text after", async () => {
    const page = await newPage();
    await openLogin(page, suite.portal.url);
    const region = page.locator(".login-form [aria-live]");
    assert.equal(await region.count(), 1, "the login form has one live region, in the page from the start");
    assert.equal(await region.getAttribute("aria-live"), "polite");
    assert.equal((await region.textContent())?.trim(), "", "empty until there is something to say");

    await submitLogin(page, { ...alice, password: "not-the-password" });
    await region.getByRole("alert").filter({ hasText: "Invalid Login" }).waitFor();
    assert.match((await region.textContent()) ?? "", /Invalid Login/);
    assert.equal(await page.getByRole("alert").count(), 1, "one alert, not a pile of old ones");

    // A missing field's message is announced the same way, and the field points to it.
    await page.getByLabel("User ID").fill("");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await region.getByRole("alert").filter({ hasText: "User ID is required." }).waitFor();
    const field = page.getByLabel("User ID");
    assert.equal(await field.getAttribute("aria-invalid"), "true");
    const described = await field.getAttribute("aria-describedby");
    assert.equal(await page.locator(`#${described}`).textContent(), "User ID is required.");
  });
});

describe("focus rings", () => {
  const suite = browserSuite({}, { viewport: DESKTOP });

  test("a checkbox, a link drawn as a button, the current menu item and an outlined button ring 3:1, light and dark", async () => {
    const login = await suite.newPage();
    await openLogin(login, suite.portal.url);
    await assertFocusRing(login, login.getByLabel("Remember me"), "Remember me");
    await assertFocusRing(login, login.getByRole("link", { name: "Reset Password" }), "Reset Password");

    const step = await suite.newPage();
    await reachCode(step, suite.portal.url, suite.portal.sandboxUrl, vince, "vince@vendor.example");
    await hydrated(step);
    await assertFocusRing(step, step.getByRole("button", { name: "Use another account" }), "Use another account");

    const home = await suite.signedInPage(accounts.alice);
    await assertFocusRing(home, home.locator(".section-nav a[aria-current=page]"), "the current menu item");
    await assertFocusRing(home, home.getByRole("button", { name: "Sign out" }), "Sign out");
  });
});

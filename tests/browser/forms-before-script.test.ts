// The sign-in path before and without its script (issue 31): with scripts off, a person signs in with the password
// and the mailed code, opens the vendor tab, asks for a reset and changes an expired password, each form a real POST;
// with the islands' script held back while the person types, what was typed and the focus stay when it arrives. A
// form's answer is a redirect to a page, so Reload never sends it again. No password, code or e-mail address ever
// appears in an address the browser requests.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { accounts } from "#harness/sign-in.ts";
import { DEMO_PASSWORD, screenshot } from "#tests/browser/harness.ts";
import { browserSuite, hydrated, lastMailId, nextCode } from "#tests/browser/steps.ts";
import { endOthersTexts } from "#web/texts/end-others.ts";

const NEW_PASSWORD = "Fresh-Start-2026!";

/**
 * Every address the page asks for, to be searched for secrets. The island's own code check (`/api/…/validate/{code}`,
 * requirements 7's path, kept out of the portal's logs) is a call, never an address the person sees or the history
 * keeps: only the pages' addresses are searched for the code.
 */
function requestedUrls(page: Page): string[] {
  const urls: string[] = [];
  page.on("request", (request) => urls.push(request.url()));
  return urls;
}
const pageUrls = (urls: string[]) => urls.filter((url) => !new URL(url).pathname.startsWith("/api/"));
const noneCarries = (urls: string[], ...secrets: string[]) => {
  for (const secret of secrets)
    assert.deepEqual(
      urls.filter((url) => decodeURIComponent(url).includes(secret)),
      [],
      `no address carries ${secret}`,
    );
};

/**
 * Holds back the page's scripts (the islands and the hydration entry) until `release` is called: a slow phone's
 * network, without waiting for real time.
 */
async function holdScripts(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    await released;
    // A request the page gave up meanwhile (it moved on to the next page) has nothing left to continue.
    await route.continue().catch(() => undefined);
  });
  return release;
}

/** The id of the element with the focus. */
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? "");

describe("the sign-in forms before and without their script", () => {
  const suite = browserSuite();
  const scriptsOff = () => suite.newPage({ javaScriptEnabled: false });

  test("with scripts off, a client signs in with the password and the mailed code, nothing secret in an address", async () => {
    const page = await scriptsOff();
    const urls = requestedUrls(page);
    const { url, sandboxUrl } = suite.portal;
    await page.goto(url);
    const before = await lastMailId(sandboxUrl, accounts.alice.email);
    await page.getByLabel("Company Short Name").fill("ACME");
    await page.getByLabel("User ID").fill("alice");
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.waitForURL(`${url}/mfa`);
    await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
    const code = await nextCode(sandboxUrl, accounts.alice.email, before);
    await page.getByLabel("Code").fill("000000");
    await page.getByRole("button", { name: "Submit Code" }).click();
    await page.getByText("Incorrect. Please try again with the most recent code.").waitFor();
    // The refusal was a redirect to the step's own page: Reload asks for that page, never sends the form again.
    const [reloaded] = await Promise.all([
      page.waitForRequest((request) => request.isNavigationRequest()),
      page.reload(),
    ]);
    assert.equal(reloaded.method(), "GET", "Reload sends no form");
    await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
    assert.equal(await page.getByText("Incorrect. Please try again").count(), 0, "the note was said once");
    await page.getByLabel("Code").fill(code);
    await page.getByRole("button", { name: "Submit Code" }).click();
    await page.waitForURL(`${url}/client/home`);
    await screenshot(page, "without-script-home");
    noneCarries(urls, DEMO_PASSWORD, code);
  });

  test("with scripts off, the vendor tab is a link, a wrong password is said, and what was typed stays", async () => {
    const page = await scriptsOff();
    const urls = requestedUrls(page);
    const { url, sandboxUrl } = suite.portal;
    await page.goto(url);
    await page.getByRole("tab", { name: "VENDOR LOGIN" }).click();
    await page.waitForURL(`${url}/?site=vendor`);
    assert.equal(await page.getByLabel("Company Short Name").count(), 0, "the vendor form");
    await page.getByLabel("User ID").fill("vera");
    await page.getByLabel("Password", { exact: true }).fill("Not-The-Password-9!");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "Invalid Login" }).waitFor();
    assert.equal(await page.getByLabel("User ID").inputValue(), "vera");
    assert.equal(await page.getByRole("tab", { name: "VENDOR LOGIN" }).getAttribute("aria-selected"), "true");
    const before = await lastMailId(sandboxUrl, accounts.vera.email);
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.waitForURL(`${url}/mfa`);
    const code = await nextCode(sandboxUrl, accounts.vera.email, before);
    await page.getByLabel("Code").fill(code);
    await page.getByLabel("Code").press("Enter");
    await page.waitForURL(`${url}/vendor/home`);
    noneCarries(urls, DEMO_PASSWORD, "Not-The-Password-9!", code);
  });

  test("with scripts off, the reset panel opens by its link and sends the mail, the address naming no one", async () => {
    const page = await scriptsOff();
    const urls = requestedUrls(page);
    const { url, sandboxUrl } = suite.portal;
    await page.goto(url);
    await page.getByRole("link", { name: "Reset Password" }).click();
    await page.getByRole("heading", { name: "Password Reset" }).waitFor();
    await page.getByLabel("Company Short Name").fill("GLOBEX");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.getByRole("alert").filter({ hasText: "Email Address is required." }).waitFor();
    assert.equal(await page.getByLabel("Company Short Name").inputValue(), "GLOBEX", "what was typed stays");
    const before = await lastMailId(sandboxUrl, accounts.gary.email);
    await page.getByLabel("Email Address").fill(accounts.gary.email);
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.getByText("If there is an account associated with the email you've entered").waitFor();
    assert.ok((await lastMailId(sandboxUrl, accounts.gary.email)) > before, "the reset mail went out");
    await page.getByRole("button", { name: "Return To Login" }).click();
    await page.getByRole("button", { name: "Sign In", exact: true }).waitFor();
    noneCarries(urls, accounts.gary.email);
  });

  test("with scripts off, an expired password is changed at sign-in and the page moves on to home", async () => {
    const page = await scriptsOff();
    const urls = requestedUrls(page);
    const { url, sandboxUrl } = suite.portal;
    await page.goto(`${url}/?site=vendor`);
    const before = await lastMailId(sandboxUrl, accounts.petra.email);
    await page.getByLabel("User ID").fill("petra");
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.waitForURL(`${url}/mfa`);
    await page.getByLabel("Code").fill(await nextCode(sandboxUrl, accounts.petra.email, before));
    await page.getByRole("button", { name: "Submit Code" }).click();
    await page.getByText("Your password has expired. Please enter a new password").waitFor();
    await page.getByLabel("Current Password").fill(DEMO_PASSWORD);
    await page.getByLabel("New Password").fill(NEW_PASSWORD);
    await page.getByLabel("Confirm Password").fill("Other-Start-2026!");
    await page.getByRole("button", { name: "Change Password" }).click();
    await page.getByText("New and confirm password do not match.").waitFor();
    await page.getByLabel("Current Password").fill(DEMO_PASSWORD);
    await page.getByLabel("New Password").fill(NEW_PASSWORD);
    await page.getByLabel("Confirm Password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Change Password" }).click();
    await page.getByText("Password Successfully Changed!").waitFor();
    await page.getByRole("link", { name: "Continue now" }).click();
    await page.waitForURL(`${url}/vendor/home`);
    noneCarries(urls, DEMO_PASSWORD, NEW_PASSWORD);
  });

  test("with scripts off, a signed-in person changes the password, and the ticked box signs out the other device", async () => {
    const { url, sandboxUrl } = suite.portal;
    const signedIn = async () => {
      const page = await scriptsOff();
      await page.goto(url);
      const before = await lastMailId(sandboxUrl, accounts.victor.email);
      await page.getByLabel("Company Short Name").fill("ACME");
      await page.getByLabel("User ID").fill("victor");
      await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
      await page.getByLabel("Code").fill(await nextCode(sandboxUrl, accounts.victor.email, before));
      await page.getByRole("button", { name: "Submit Code" }).click();
      await page.waitForURL(`${url}/client/home`);
      return page;
    };
    const otherDevice = await signedIn();
    const page = await signedIn();
    const urls = requestedUrls(page);
    await page.goto(`${url}/client/users/change-password`);
    // The page's other forms (ending the other session) ask for the password too: this is the change's own.
    const form = page.locator("form", { has: page.getByRole("button", { name: "Change Password" }) });
    await form.getByLabel("Current Password").fill(DEMO_PASSWORD);
    await form.getByLabel("New Password").fill(NEW_PASSWORD);
    await form.getByLabel("Confirm Password").fill(NEW_PASSWORD);
    assert.equal(await form.getByLabel(endOthersTexts.checkbox).isChecked(), true, "ticked as it opens");
    await form.getByRole("button", { name: "Change Password" }).click();
    await page.getByText("Password Successfully Changed!").waitFor();
    await page.getByText(endOthersTexts.ended(1)).waitFor();
    await otherDevice.goto(`${url}/client/home`);
    assert.match(new URL(otherDevice.url()).pathname, /^\/$/, "the other device's session ended: the sign-in page");
    noneCarries(urls, DEMO_PASSWORD, NEW_PASSWORD);
  });

  test("with scripts off on a phone, light and dark, the tabs and Reset Password are links a thumb can hit", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      const page = await suite.newPage({
        javaScriptEnabled: false,
        viewport: { width: 360, height: 740 },
        colorScheme,
      });
      await page.goto(suite.portal.url);
      for (const tab of ["CLIENT LOGIN", "VENDOR LOGIN"]) {
        const box = await page.getByRole("tab", { name: tab }).boundingBox();
        assert.ok(box && box.height >= 44, `${tab} is at least 44 px tall (${colorScheme})`);
      }
      assert.equal(await page.getByRole("tab", { name: "VENDOR LOGIN" }).getAttribute("href"), "?site=vendor");
      assert.equal(await page.getByRole("link", { name: "Reset Password" }).getAttribute("href"), "?reset");
      await screenshot(page, `without-script-login-phone-${colorScheme}`);
    }
  });

  test("with the script held back, what a person types and where the focus is stay when it arrives", async () => {
    const page = await suite.newPage();
    const urls = requestedUrls(page);
    const { url, sandboxUrl } = suite.portal;
    // This device remembers another person on the other site: it must not replace what is typed, nor switch the tab.
    await page.addInitScript(() => {
      localStorage.setItem("vipUserName", "vince");
      localStorage.setItem("lastSite", "vendor");
    });
    const release = await holdScripts(page);
    await page.goto(url, { waitUntil: "commit" });
    await page.getByLabel("Company Short Name").fill("ACME");
    await page.getByLabel("User ID").fill("alice");
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    assert.equal(await focusedId(page), "login-client-password");
    release();
    await hydrated(page);
    assert.equal(await page.getByLabel("Company Short Name").inputValue(), "ACME");
    assert.equal(await page.getByLabel("User ID").inputValue(), "alice");
    assert.equal(await page.getByLabel("Password", { exact: true }).inputValue(), DEMO_PASSWORD);
    assert.equal(await focusedId(page), "login-client-password", "the focus stays where the person is");
    assert.equal(await page.getByRole("tab", { name: "CLIENT LOGIN" }).getAttribute("aria-selected"), "true");
    // The island now owns the form: Enter signs in through its call, the address unchanged.
    const before = await lastMailId(sandboxUrl, accounts.alice.email);
    await page.getByLabel("Password", { exact: true }).press("Enter");
    await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
    assert.equal(page.url(), `${url}/`);
    await page.getByLabel("Code").fill(await nextCode(sandboxUrl, accounts.alice.email, before));
    await page.getByLabel("Code").press("Enter");
    await page.waitForURL(`${url}/client/home`);
    noneCarries(urls, DEMO_PASSWORD);
  });

  test("with the script held back, the reset panel opened by its link keeps the address typed", async () => {
    const page = await suite.newPage();
    const { url } = suite.portal;
    const release = await holdScripts(page);
    await page.goto(`${url}/?site=vendor&reset`, { waitUntil: "commit" });
    await page.getByLabel("Email Address").fill(accounts.vera.email);
    release();
    await page.getByRole("heading", { name: "Password Reset" }).waitFor();
    await hydrated(page);
    await page.waitForFunction(() => document.querySelector(".reset-panel form") !== null);
    assert.equal(await page.getByLabel("Email Address").inputValue(), accounts.vera.email);
    assert.equal(await focusedId(page), "reset-vendor-email");
    // Return To Login, then the panel again: a fresh entry view, in place.
    await page.getByRole("button", { name: "Return To Login" }).click();
    await page.getByRole("button", { name: "Sign In", exact: true }).waitFor();
    assert.equal(page.url(), `${url}/?site=vendor&reset`, "the island switched in place");
  });

  test("submitted before the script arrives, the sign-in goes on by the form, and a code typed early stays", async () => {
    const page = await suite.newPage();
    const urls = requestedUrls(page);
    const { url, sandboxUrl } = suite.portal;
    let release = await holdScripts(page);
    await page.goto(url, { waitUntil: "commit" });
    const before = await lastMailId(sandboxUrl, accounts.gary.email);
    await page.getByLabel("Company Short Name").fill("GLOBEX");
    await page.getByLabel("User ID").fill("gary");
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByLabel("Password", { exact: true }).press("Enter");
    await page.waitForURL(`${url}/mfa`, { waitUntil: "commit" });
    release();
    await page.unrouteAll({ behavior: "ignoreErrors" });
    release = await holdScripts(page);
    await page.reload({ waitUntil: "commit" }); // the step's own page, its script held back again
    const code = await nextCode(sandboxUrl, accounts.gary.email, before);
    await page.getByLabel("Code").fill(code);
    release();
    await hydrated(page);
    assert.equal(await page.getByLabel("Code").inputValue(), code, "the code typed early stays");
    assert.equal(await focusedId(page), "mfa-code", "the focus stays in the code");
    await page.getByLabel("Code").press("Enter");
    await page.waitForURL(`${url}/client/home`);
    noneCarries(urls, DEMO_PASSWORD);
    noneCarries(pageUrls(urls), code);
  });
});

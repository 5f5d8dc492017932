// Issue 14 on the sign-in path, in the browser: failed requests in section 8's words, the MFA step's way out and its
// counts, typed values kept across tabs and the last site remembered, headings and where the focus goes.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { accounts } from "#scripts/sign-in.ts";
import { DEMO_PASSWORD } from "#tests/browser/harness.ts";
import { alerts, browserSuite, openLogin, signInAs, submitLogin } from "#tests/browser/steps.ts";
import { mfaTexts } from "#web/texts/mfa.ts";

/** The id and name of the element that has the focus. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLInputElement | null;
    return `${element?.id ?? ""}|${element?.textContent ?? ""}`;
  });

/** Answers the next code validations of this page with `status` and `body`, as a portal would. */
async function validateAnswers(page: Page, status: number, body: unknown): Promise<void> {
  await page.route("**/api/web/*/mfa/validate/**", (route) =>
    route.fulfill({ status, contentType: "application/json", body: JSON.stringify(body) }),
  );
}

describe("sign-in, as people expect it", () => {
  const suite = browserSuite();
  const { newPage } = suite;

  test("#3 a request that gets no answer shows section 8's 'Action Failed', not the browser's 'Failed to fetch'", async () => {
    const page = await newPage();
    await openLogin(page, suite.portal.url);
    await page.route("**/api/auth/client", (route) => route.abort("internetdisconnected"));
    await submitLogin(page, { site: "client", shortName: "ACME", userName: "alice", password: DEMO_PASSWORD });
    await page.getByRole("alert").filter({ hasText: "Action Failed" }).waitFor();
    assert.doesNotMatch(await alerts(page), /fetch/i);
    // The focus moved to the message, so it is read first.
    assert.match(await focused(page), /Action Failed/);
  });

  test("#3 an empty code is named in the browser: 'Code is required.'", async () => {
    const page = await newPage();
    await openLogin(page, suite.portal.url);
    await submitLogin(page, { site: "vendor", userName: "vince", password: DEMO_PASSWORD });
    await page.getByRole("button", { name: /^Send Again \(/ }).waitFor();
    await page.getByRole("button", { name: "Submit Code" }).click();
    await page.getByRole("alert").filter({ hasText: "Code is required." }).waitFor();
  });

  test("#4 after the last allowed wrong code the step says why the sign-in ended and what to do", async () => {
    const page = await newPage();
    await openLogin(page, suite.portal.url);
    await submitLogin(page, { site: "client", shortName: "ACME", userName: "victor", password: DEMO_PASSWORD });
    await page.getByRole("button", { name: /^Send Again \(/ }).waitFor();
    await validateAnswers(page, 401, {
      detail: "Your session has expired. Please Login again",
      code: "mfa-attempts-exhausted",
    });
    await page.getByLabel("Code").fill("000000");
    await page.getByRole("button", { name: "Submit Code" }).click();
    await page.getByRole("alert").filter({ hasText: mfaTexts.attemptsExhausted }).waitFor();
    assert.equal(new URL(page.url()).pathname, "/", "no trip through a redirect");
    assert.doesNotMatch(await alerts(page), /session has expired/);
    // Back on the login form, tabs working again, ready for a new sign-in.
    assert.ok(await page.getByRole("tab", { name: "VENDOR LOGIN" }).isEnabled());
    await page.getByRole("button", { name: "Login", exact: true }).waitFor();
  });

  test("#4 on the /mfa route too, with the way back to sign in", async () => {
    const page = await newPage();
    await openLogin(page, suite.portal.url);
    await submitLogin(page, { site: "vendor", userName: "vince", password: DEMO_PASSWORD });
    await page.getByRole("button", { name: /^Send Again \(/ }).waitFor();
    await openLogin(page, suite.portal.url, "/mfa");
    await page.getByRole("button", { name: /^Send Again/ }).waitFor();
    // The portal says no tries are left with the last wrong code's answer.
    await validateAnswers(page, 200, [{ text: "Failed", attemptsLeft: 0 }]);
    await page.getByLabel("Code").fill("000000");
    await page.getByLabel("Code").press("Enter");
    await page.getByRole("alert").filter({ hasText: mfaTexts.attemptsExhausted }).waitFor();
    assert.equal(await page.getByRole("link", { name: mfaTexts.signInAgain }).getAttribute("href"), "/");
    assert.equal(await page.getByLabel("Code").count(), 0, "no code field left to try");
  });

  test("the MFA step says how many attempts are left once a code has failed", async () => {
    const page = await newPage();
    await openLogin(page, suite.portal.url);
    await submitLogin(page, { site: "vendor", userName: "vera", password: DEMO_PASSWORD });
    await page.getByRole("button", { name: /^Send Again \(/ }).waitFor();
    assert.doesNotMatch(
      (await page.locator(".mfa-step").textContent()) ?? "",
      /attempt/,
      "nothing said before a failure",
    );
    await validateAnswers(page, 200, [{ text: "Failed", attemptsLeft: 2 }]);
    await page.getByLabel("Code").fill("000000");
    await page.getByRole("button", { name: "Submit Code" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "Incorrect. Please try again with the most recent code. 2 attempts left." })
      .waitFor();
    assert.equal(
      await page.getByLabel("Code").inputValue(),
      "",
      "the refused code leaves the field, ready for the next",
    );
    await validateAnswers(page, 200, [{ text: "Failed", attemptsLeft: 1 }]);
    await page.getByLabel("Code").fill("000001");
    await page.getByRole("button", { name: "Submit Code" }).click();
    await page.getByRole("alert").filter({ hasText: "1 attempt left." }).waitFor();
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

  test("#9 switching CLIENT → VENDOR → CLIENT keeps what was typed; after a vendor signs out the page opens on VENDOR", async () => {
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
    await page.getByRole("button", { name: "Reset Password" }).click();
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

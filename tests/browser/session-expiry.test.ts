// Session expiry (requirements 4.5, 8): a 401 on any call sends the user to the login page with the expired message.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { accounts } from "#harness/sign-in.ts";
import { DEMO_PASSWORD, sandboxPost } from "#tests/browser/harness.ts";
import { browserSuite, hydrated, lastMailId, nextCode, openLogin, submitLogin } from "#tests/browser/steps.ts";

const EXPIRED = "Your session has expired. Please Login again";

describe("session expiry", () => {
  const suite = browserSuite();
  const { newPage } = suite;

  test("revoked tokens: the next API call of a signed-in page lands on / with the message", async () => {
    const page = await suite.ownSessionPage(accounts.alice);
    await page.goto(`${suite.portal.url}/client/users/change-password`);
    await hydrated(page);
    await sandboxPost(suite.portal.sandboxUrl, "/sandbox/tokens/revoke", { site: "client", username: "alice" });

    await page.getByLabel("Current Password").fill(DEMO_PASSWORD);
    await page.getByLabel("New Password").fill("Another-Secret-2026!");
    await page.getByLabel("Confirm Password").fill("Another-Secret-2026!");
    await page.getByRole("button", { name: "Change Password" }).click();
    await page.waitForURL(`${suite.portal.url}/`);
    await page.getByRole("alert").filter({ hasText: EXPIRED }).waitFor();
    assert.ok(await page.getByRole("tab", { name: "CLIENT LOGIN" }).isEnabled(), "no token is held any more");
  });

  test("revoked during the MFA step: submitting a code lands on / with the message", async () => {
    const page = await newPage();
    const before = await lastMailId(suite.portal.sandboxUrl, "vince@vendor.example");
    await openLogin(page, suite.portal.url);
    await submitLogin(page, { site: "vendor", userName: "vince", password: DEMO_PASSWORD });
    await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
    const code = await nextCode(suite.portal.sandboxUrl, "vince@vendor.example", before);
    await sandboxPost(suite.portal.sandboxUrl, "/sandbox/tokens/revoke", { site: "vendor", username: "vince" });
    await page.getByLabel("Code").fill(code);
    await page.getByRole("button", { name: "Submit Code" }).click();
    await page.waitForURL(`${suite.portal.url}/`);
    await page.getByRole("alert").filter({ hasText: EXPIRED }).waitFor();
    await page.getByRole("button", { name: "Sign In", exact: true }).waitFor();
  });
});

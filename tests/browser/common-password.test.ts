// A common password is refused on the change call, and the form says why; the password in use stays.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { accounts } from "#harness/sign-in.ts";
import { serverTexts } from "#server/texts.ts";
import { DEMO_PASSWORD } from "#tests/browser/harness.ts";
import { browserSuite, hydrated } from "#tests/browser/steps.ts";

describe("a common new password", () => {
  const suite = browserSuite();

  test("meets every rule the form lists, and is still refused with a message the form shows", async () => {
    const page = await suite.signedInPage(accounts.gary);
    await page.goto(`${suite.portal.url}/client/users/change-password`);
    await hydrated(page);
    await page.getByLabel("Current Password").fill(DEMO_PASSWORD);
    await page.getByLabel("New Password").fill("Password123!");
    await page.getByLabel("Confirm Password").fill("Password123!");
    await page.getByRole("button", { name: "Change Password" }).click();
    await page.getByRole("alert").filter({ hasText: serverTexts.commonPassword.message }).waitFor();
    assert.equal(await page.getByText("Password Successfully Changed!").count(), 0, "nothing was changed");
  });
});

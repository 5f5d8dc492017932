// The MFA code as a person may type it: a right code typed in two groups ("850 894") passes.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DEMO_PASSWORD } from "#tests/browser/harness.ts";
import { browserSuite, lastMailId, nextCode, openLogin, submitLogin } from "#tests/browser/steps.ts";

describe("the MFA code field", () => {
  const suite = browserSuite();

  test("a right code typed with a space in it signs the person in; the field still shows eight places", async () => {
    const page = await suite.newPage();
    const email = "vera@vendor.example";
    const before = await lastMailId(suite.portal.sandboxUrl, email);
    await openLogin(page, suite.portal.url);
    await submitLogin(page, { site: "vendor", userName: "vera", password: DEMO_PASSWORD });
    await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
    const code = await nextCode(suite.portal.sandboxUrl, email, before);
    const field = page.getByLabel("Code");
    assert.equal(await field.getAttribute("placeholder"), "________");
    await field.fill(`${code.slice(0, 3)} ${code.slice(3)}`);
    await field.press("Enter");
    await page.waitForURL(`${suite.portal.url}/vendor/home`);
    const stored = await page.evaluate(() => localStorage.getItem("mfa-vendor-vera"));
    assert.equal(stored, code, "the device keeps the code as digits");
  });
});

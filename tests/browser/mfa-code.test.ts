// The MFA code as a person may type or paste it: a right code typed in two groups ("850 894") passes, and a pasted
// "1234 5678" keeps its eight digits.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DEMO_PASSWORD } from "#tests/browser/harness.ts";
import { browserSuite, type Login, openLogin, reachCode, submitLogin } from "#tests/browser/steps.ts";
import { mfaTexts } from "#web/texts/mfa.ts";

const vera: Login = { site: "vendor", userName: "vera", password: DEMO_PASSWORD };

describe("the MFA code field", () => {
  const suite = browserSuite();

  test("a right code typed with a space in it signs the person in; the field still shows eight places", async () => {
    const page = await suite.newPage();
    const code = await reachCode(page, suite.portal.url, suite.portal.sandboxUrl, vera, "vera@vendor.example");
    const field = page.getByLabel("Code");
    assert.equal(await field.getAttribute("placeholder"), "________");
    await field.fill(`${code.slice(0, 3)} ${code.slice(3)}`);
    await field.press("Enter");
    await page.waitForURL(`${suite.portal.url}/vendor/home`);
    const stored = await page.evaluate(() => localStorage.getItem("mfa-vendor-vera"));
    assert.equal(stored, code, "the device keeps the code as digits");
  });

  test("an eight-digit code pasted with a space keeps all eight digits (the field's length counts digits, not the space)", async () => {
    const page = await suite.newPage();
    await openLogin(page, suite.portal.url);
    await submitLogin(page, { site: "vendor", userName: "vince", password: DEMO_PASSWORD });
    await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
    const field = page.getByLabel("Code");
    await field.evaluate((input) => {
      const data = new DataTransfer();
      data.setData("text", "1234 5678");
      input.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    });
    assert.equal(await field.inputValue(), "12345678");
    assert.equal(await field.getAttribute("maxlength"), "8", "requirements 5.3: at most 8 characters");
  });

  test("a code with a hyphen is sent as digits; one with letters is not sent, and the step says the code is digits only", async () => {
    const page = await suite.newPage();
    const code = await reachCode(page, suite.portal.url, suite.portal.sandboxUrl, vera, "vera@vendor.example");
    const field = page.getByLabel("Code");
    await field.fill("abc123");
    await field.press("Enter");
    await page.getByRole("alert").filter({ hasText: mfaTexts.digitsOnly }).waitFor();
    await field.fill(`${code.slice(0, 3)}-${code.slice(3)}`);
    await field.press("Enter");
    await page.waitForURL(`${suite.portal.url}/vendor/home`);
  });
});

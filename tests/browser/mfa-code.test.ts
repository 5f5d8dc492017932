// The MFA code as a person may type or paste it: a right code typed in two groups ("850 894") passes, and a pasted
// "1234 5678" keeps its eight digits.
// And what the step answers: an empty code named, the attempts left once a code has failed, and after the last allowed
// wrong code why the sign-in ended and the way back to sign in.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { DEMO_PASSWORD, screenshot } from "#tests/browser/harness.ts";
import { alerts, browserSuite, type Login, openLogin, reachCode, submitLogin } from "#tests/browser/steps.ts";
import { mfaTexts } from "#web/texts/mfa.ts";

const vera: Login = { site: "vendor", userName: "vera", password: DEMO_PASSWORD };

/** Answers the next code validations of this page with `status` and `body`, as a portal would. */
async function validateAnswers(page: Page, status: number, body: unknown): Promise<void> {
  await page.route("**/api/web/*/mfa/validate/**", (route) =>
    route.fulfill({ status, contentType: "application/json", body: JSON.stringify(body) }),
  );
}

describe("the MFA code field", () => {
  const suite = browserSuite();

  test("the step says where the code went in requirements 2.4's words, then which code works, and no lifetime the upstream never gave", async () => {
    const page = await suite.newPage();
    await openLogin(page, suite.portal.url);
    await submitLogin(page, vera);
    await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
    const lines = await page.locator(".mfa-step > p").allTextContents();
    assert.deepEqual(lines.slice(0, 3), [
      "A code has been sent to the email registered to this account. Please enter the code below to verify this device.",
      'If you do not receive an email within a few minutes, click "Send Again" to receive a new one.',
      "Only the code in the newest email works.",
    ]);
    for (const line of lines.slice(2)) assert.doesNotMatch(line, /minute|hour|second|expire|valid for/i, line);
    await screenshot(page, "mfa-step-which-code-works");
  });

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

  test("an empty code is named in the browser: 'Code is required.', and stays named when the step's code goes out", async () => {
    const page = await suite.newPage();
    // The step's opening code is held until the person has submitted an empty one.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/web/*/mfa/generate", async (route) => {
      await held;
      await route.continue();
    });
    await openLogin(page, suite.portal.url);
    await submitLogin(page, { site: "vendor", userName: "vince", password: DEMO_PASSWORD });
    await page.getByRole("button", { name: /^Send Again \(/ }).waitFor();
    await page.getByRole("button", { name: "Submit Code" }).click();
    const required = page.getByRole("alert").filter({ hasText: "Code is required." });
    await required.waitFor();
    const generated = page.waitForResponse((response) => response.url().includes("/mfa/generate"));
    release();
    await (await generated).finished();
    // The answer is read and its state applied within a few frames.
    await page.evaluate(() => new Promise((done) => setTimeout(() => requestAnimationFrame(done), 100)));
    assert.ok(await required.isVisible(), "the opening code's answer does not wipe the note");
  });

  test("after the last allowed wrong code the step says why the sign-in ended and what to do", async () => {
    const page = await suite.newPage();
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
    await page.getByRole("button", { name: "Sign In", exact: true }).waitFor();
    assert.equal(await page.getByLabel("User ID").inputValue(), "victor", "the IDs stay");
    assert.equal(
      await page.getByLabel("Password", { exact: true }).inputValue(),
      "",
      "the password of the ended sign-in does not",
    );
    assert.ok(
      await page.evaluate(
        () =>
          document.activeElement !== document.body &&
          document.activeElement?.closest(".note")?.textContent?.includes("Too many incorrect codes") === true,
      ),
      "the note takes the focus, not the page's body",
    );
  });

  test("the last allowed wrong code on the /mfa route ends the step there too, with the way back to sign in", async () => {
    const page = await suite.newPage();
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
    const page = await suite.newPage();
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
});

// Passwords in the browser (SPEC.md 2.3, 2.5, 4.3, 4.4, 5): expired at sign-in, reset by mail, the form's rules.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { DEMO_PASSWORD, screenshot } from "#tests/e2e/harness.ts";
import { browserSuite, hydrated, lastMailId, nextMail, openLogin, signIn, submitLogin } from "#tests/e2e/steps.ts";

const NEW_PASSWORD = "Fresh-Start-2026!";

/** Fills the change-password form's new passwords and submits it. */
async function changeTo(page: Page, next: string, confirm = next): Promise<void> {
  await page.getByLabel("New Password").fill(next);
  await page.getByLabel("Confirm Password").fill(confirm);
  await page.getByRole("button", { name: "Change Password" }).click();
}

describe("passwords", () => {
  const suite = browserSuite();
  const { newPage } = suite;

  test("an expired password is changed inside the MFA step, then the user lands on the home", async () => {
    const page = await newPage();
    await signIn(
      page,
      suite.portal.url,
      suite.portal.sandboxUrl,
      { site: "client", shortName: "ACME", userName: "paula", password: DEMO_PASSWORD },
      "paula@acme.example",
    );
    await page.getByText("Your password has expired. Please enter a new password").waitFor();
    assert.equal(await page.getByLabel("Username").inputValue(), "paula");
    assert.ok(await page.getByLabel("Username").evaluate((input: HTMLInputElement) => input.readOnly));
    assert.equal(await page.getByLabel("Current Password").inputValue(), DEMO_PASSWORD, "prefilled from the login");
    await page.getByLabel("New Password").fill(NEW_PASSWORD);
    await page.getByLabel("Confirm Password").fill(NEW_PASSWORD);
    await screenshot(page, "change-password");
    await page.getByRole("button", { name: "Change Password" }).click();
    // The success note shows for an instant before the redirect; the no-redirect case below checks its text.
    await page.waitForURL(`${suite.portal.url}/client/home`);
  });

  test("a vendor's expired password, on the same form", async () => {
    const page = await newPage();
    await signIn(
      page,
      suite.portal.url,
      suite.portal.sandboxUrl,
      { site: "vendor", userName: "petra", password: DEMO_PASSWORD },
      "petra@vendor.example",
    );
    await page.getByText("Your password has expired. Please enter a new password").waitFor();
    await changeTo(page, NEW_PASSWORD);
    await page.waitForURL(`${suite.portal.url}/vendor/home`);
  });

  test("the new-password rules show their messages in SPEC.md's order; a wrong current password is refused", async () => {
    const page = await newPage();
    await signIn(
      page,
      suite.portal.url,
      suite.portal.sandboxUrl,
      { site: "client", shortName: "ACME", userName: "victor", password: DEMO_PASSWORD },
      "victor@acme.example",
    );
    await page.waitForURL(`${suite.portal.url}/client/home`);
    await page.goto(`${suite.portal.url}/client/users/change-password`);
    await page.getByRole("heading", { name: "Change Password", level: 2 }).waitFor();
    await hydrated(page);
    await page.getByLabel("Current Password").fill(DEMO_PASSWORD);
    const button = page.getByRole("button", { name: "Change Password" });
    const expectError = async (message: string) => {
      await page.getByRole("alert").filter({ hasText: message }).waitFor();
      assert.ok(await button.isEnabled(), "enabled again after an error");
    };

    // The checklist ticks as the user types.
    const requirement = (name: RegExp) => page.getByRole("listitem").filter({ hasText: name });
    await page.getByLabel("New Password").fill("abc");
    assert.equal(await requirement(/lowercase/).getAttribute("class"), "met");
    assert.equal(await requirement(/uppercase/).getAttribute("class"), "unmet");

    await changeTo(page, "Short-1!");
    await expectError("Password must be at least 12 characters in length.");
    await changeTo(page, "Long-Enough-2026!", "Long-Enough-2027!");
    await expectError("New and confirm password do not match.");
    await changeTo(page, "longenoughbutweak");
    await expectError("Password does not meet password requirements");

    await page.getByLabel("Current Password").fill("not-my-password");
    await changeTo(page, NEW_PASSWORD);
    await expectError("The current password is not correct.");

    await page.getByLabel("Show passwords").check();
    assert.equal(await page.getByLabel("New Password").getAttribute("type"), "text");

    await page.getByLabel("Current Password").fill(DEMO_PASSWORD);
    await changeTo(page, NEW_PASSWORD);
    await page.getByText("Password Successfully Changed!").waitFor();
    assert.ok(await button.isDisabled(), "stays disabled after a success");
    assert.equal(new URL(page.url()).pathname, "/client/users/change-password", "no redirect on this page");
  });

  test("the reset panel: both views, the alert 5 s later, then the forced change at the next sign-in", async () => {
    const page = await newPage();
    await page.clock.install();
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    await openLogin(page, suite.portal.url);
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.getByRole("heading", { name: "Password Reset" }).waitFor();
    await page.getByText("Enter the company short name and email address associated with your account.").waitFor();

    // The vendor panel asks for the e-mail address only.
    await page.getByRole("tab", { name: "VENDOR LOGIN" }).click();
    await page.getByText("Enter the email address associated with your account.").waitFor();
    assert.equal(await page.getByLabel("Company Short Name").count(), 0);
    await page.getByRole("tab", { name: "CLIENT LOGIN" }).click();

    // Only the browser's required check applies: an empty submit sends nothing.
    const before = await lastMailId(suite.portal.sandboxUrl, "gary@globex.example");
    await page.getByRole("button", { name: "Reset Password" }).click();
    assert.ok(await page.getByLabel("Company Short Name").evaluate((input: HTMLInputElement) => !input.validity.valid));

    await page.getByLabel("Company Short Name").fill("GLOBEX");
    await page.getByLabel("Email Address").fill("gary@globex.example");
    await screenshot(page, "reset");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page
      .getByText(
        "If there is an account associated with the email you've entered, you will receive an email with instructions to reset your password shortly.",
      )
      .waitFor();
    await screenshot(page, "reset-sent");
    assert.deepEqual(dialogs, []);
    await page.clock.fastForward(5000);
    await page.waitForFunction(() => true); // let the dialog event arrive
    assert.deepEqual(dialogs, ["Reset Password Email Sent."]);

    await page.getByRole("button", { name: "Return To Login" }).click();
    await page.getByRole("button", { name: "Login", exact: true }).waitFor();

    const mail = await nextMail(suite.portal.sandboxUrl, "gary@globex.example", before);
    const temporary = /temporary password is: (\S+)/.exec(mail)?.[1];
    assert.ok(temporary, "the mail carries a temporary password");
    await page.clock.resume();

    const codeMailBefore = await lastMailId(suite.portal.sandboxUrl, "gary@globex.example");
    await submitLogin(page, { site: "client", shortName: "GLOBEX", userName: "gary", password: temporary });
    await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
    const body = await nextMail(suite.portal.sandboxUrl, "gary@globex.example", codeMailBefore);
    await page.getByLabel("Code").fill(/\b(\d{6})\b/.exec(body)?.[1] ?? "");
    await page.getByRole("button", { name: "Submit Code" }).click();
    await page.getByText("Your password has expired. Please enter a new password").waitFor();
    await changeTo(page, NEW_PASSWORD);
    await page.waitForURL(`${suite.portal.url}/client/home`);

    // The new password works; this device's code is remembered, so no code is asked.
    await page.getByRole("button", { name: "Sign out" }).click();
    await openLogin(page, suite.portal.url);
    await submitLogin(page, { site: "client", shortName: "GLOBEX", userName: "gary", password: NEW_PASSWORD });
    await page.waitForURL(`${suite.portal.url}/client/home`);
  });

  test("a failed reset call shows its message and keeps the form", async () => {
    const page = await newPage();
    await openLogin(page, suite.portal.url);
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.getByLabel("Company Short Name").fill("G".repeat(300)); // longer than the upstream accepts
    await page.getByLabel("Email Address").fill("gary@globex.example");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.getByRole("alert").waitFor();
    assert.ok(await page.getByLabel("Email Address").isVisible(), "the entry view stays");
    assert.ok(await page.getByRole("button", { name: "Reset Password" }).isEnabled());
  });
});

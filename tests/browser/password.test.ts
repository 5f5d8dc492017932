// Passwords in the browser (requirements 2.3, 2.5, 4.3, 4.4, 5): expired at sign-in, reset by mail, the form's rules.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { accounts } from "#harness/sign-in.ts";
import { DEMO_PASSWORD, screenshot } from "#tests/browser/harness.ts";
import {
  browserSuite,
  enterCode,
  hydrated,
  lastMailId,
  nextMail,
  openLogin,
  openResetLink,
  openResetPanel,
  setNewPassword,
  signInAs,
  submitLogin,
} from "#tests/browser/steps.ts";
import { layoutTexts } from "#web/texts/layout.ts";
import { mfaTexts } from "#web/texts/mfa.ts";
import { passwordTexts } from "#web/texts/password.ts";
import { resetTexts } from "#web/texts/reset.ts";

const NEW_PASSWORD = "Fresh-Start-2026!";

/** Fills the change-password form's new passwords and submits it. */
const changeTo = (page: Page, next: string, confirm = next) => setNewPassword(page, "Change Password", next, confirm);

/**
 * The form shows whose password it changes as text, not as a field that looks editable; a password manager still
 * finds the user name beside the new password, in a field no one sees or reaches.
 */
async function assertUsernameShownAsText(page: Page, userName: string): Promise<void> {
  const form = page.locator(".change-password form");
  const shown = form.locator("p", { hasText: passwordTexts.username });
  assert.equal(await shown.locator("strong").textContent(), userName, "the name, under its label");
  assert.equal(await page.getByRole("textbox", { name: passwordTexts.username }).count(), 0, "no Username field");
  const forManagers = form.locator('input[autocomplete="username"]');
  assert.equal(await forManagers.inputValue(), userName, "the user name for password managers");
  assert.equal(await forManagers.isVisible(), false, "unseen");
  const reachable = await form.evaluate(
    (element, name) =>
      [...element.querySelectorAll<HTMLElement>("input, button, a[href], [tabindex]")].filter(
        (control) => control.checkVisibility() && control.tabIndex >= 0 && (control as HTMLInputElement).value === name,
      ).length,
    userName,
  );
  assert.equal(reachable, 0, "nothing Tab reaches holds the user name");
}

const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };

describe("passwords", () => {
  const suite = browserSuite();
  const { newPage } = suite;

  test("an expired password is changed at /mfa under a visible Change Password heading, with no hidden Verify This Device", async () => {
    const page = await newPage();
    await signInAs(page, suite.portal, accounts.paula);
    await page.getByText("Your password has expired. Please enter a new password").waitFor();
    await assertUsernameShownAsText(page, "paula");
    assert.equal(await page.getByLabel("Current Password").inputValue(), DEMO_PASSWORD, "prefilled from the login");

    // The /mfa route shows the same form; its only heading is the visible h1 "Change Password".
    await page.goto(`${suite.portal.url}/mfa`);
    await hydrated(page);
    const headings = await page
      .locator("h1, h2, h3")
      .evaluateAll((found) =>
        found.map((heading) => `${heading.tagName} ${heading.textContent} ${heading.checkVisibility()}`),
      );
    assert.deepEqual(headings, ["H1 Change Password true"]);
    await page.getByText("Your password has expired. Please enter a new password").waitFor();
    await page.getByLabel("Current Password").fill(DEMO_PASSWORD);
    await page.getByLabel("New Password").fill(NEW_PASSWORD);
    await page.getByLabel("Confirm Password").fill(NEW_PASSWORD);
    await screenshot(page, "change-password");
    await page.getByRole("button", { name: "Change Password" }).click();
    await page.waitForURL(`${suite.portal.url}/client/home`);
  });

  test("'Password Successfully Changed!' stays in view long enough to read before the page moves on", async () => {
    const page = await newPage();
    // The page's clock, which the test moves on: the pause before the page moves is the page's own timer.
    await page.clock.install();
    await signInAs(page, suite.portal, accounts.petra);
    await page.getByText("Your password has expired. Please enter a new password").waitFor();
    await changeTo(page, NEW_PASSWORD);
    const success = page.getByText("Password Successfully Changed!");
    await success.waitFor();
    const home = `${suite.portal.url}/vendor/home`;
    const moved: string[] = [];
    page.on("request", (request) => {
      if (request.isNavigationRequest()) moved.push(request.url());
    });
    // Still on the page, the message in view and focused, two seconds later; a link goes on at once.
    await page.clock.fastForward(2000);
    assert.ok(await success.isVisible(), "the message is still there to read");
    assert.equal(new URL(page.url()).pathname, "/", "the page has not moved yet");
    assert.ok(await page.getByRole("link", { name: "Continue now" }).isVisible());
    await page.clock.fastForward(1000);
    assert.deepEqual(moved, [], "shown for a few seconds: not moving on three seconds later");
    await page.clock.fastForward(2000);
    await page.waitForURL(home);
  });

  test("change password on a section page: the form empties and the button works again after a success", async () => {
    const page = await suite.ownSessionPage(accounts.gary);
    await page.goto(`${suite.portal.url}/client/users/change-password`);
    await hydrated(page);
    await page.getByLabel("Current Password").fill(DEMO_PASSWORD);
    await changeTo(page, NEW_PASSWORD);
    await page.getByText("Password Successfully Changed!").waitFor();
    // The answer's message takes the focus, so it is read and scrolled into view.
    await page.waitForFunction(() => document.activeElement?.textContent?.includes("Password Successfully Changed!"));
    for (const label of ["Current Password", "New Password", "Confirm Password"]) {
      assert.equal(await page.getByLabel(label).inputValue(), "", `${label} is empty`);
    }
    assert.ok(await page.getByRole("button", { name: "Change Password" }).isEnabled(), "the button works again");
    assert.equal(new URL(page.url()).pathname, "/client/users/change-password", "no redirect on this page");
  });

  test("on a section page the Username is text beside the form, not a field", async () => {
    const page = await suite.signedInPage(accounts.vince);
    await page.goto(`${suite.portal.url}/vendor/users/change-password`);
    await hydrated(page);
    await assertUsernameShownAsText(page, "vince");
    await page.getByRole("heading", { name: passwordTexts.heading }).scrollIntoViewIfNeeded();
    await screenshot(page, "change-password-username-as-text");
  });

  test("on a phone (360 px) the password requirements read well: no overflow, wrapped lines under their words, ranges unbroken, the special characters on a line of their own", async () => {
    const page = await suite.signedInPage(accounts.vince, { viewport: { width: 360, height: 740 } });
    await page.goto(`${suite.portal.url}/vendor/users/change-password`);
    await hydrated(page);
    await page.getByLabel("New Password").fill("abcD1");
    // Inside evaluate, no named helpers: the test's compiler would wrap them in a function the page does not have.
    const layout = await page.locator(".password-requirements").evaluate((list) => {
      const range = document.createRange();
      const items = [...list.querySelectorAll("li")].map((item) => {
        const mark = item.querySelector(".check")?.getBoundingClientRect();
        const texts: Text[] = [];
        const walker = document.createTreeWalker(item, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (node.parentElement?.closest(".check, .visually-hidden") || !(node as Text).data.trim()) continue;
          texts.push(node as Text);
        }
        const rects: DOMRect[] = [];
        for (const node of texts) {
          range.selectNodeContents(node);
          rects.push(...[...range.getClientRects()].filter((rect) => rect.width > 0));
        }
        // The lines each phrase of the item takes, and its first line's top.
        const phrases: Record<string, { lines: number; top: number }> = {};
        for (const wanted of ["(a-z)", "(A-Z)", "(0-9)", "!"]) {
          const node = texts.find((text) => text.data.includes(wanted));
          if (!node) continue;
          const start = node.data.indexOf(wanted);
          range.setStart(node, start);
          range.setEnd(node, start + wanted.length);
          const boxes = [...range.getClientRects()].filter((rect) => rect.width > 0);
          phrases[wanted] = {
            lines: new Set(boxes.map((box) => Math.round(box.top))).size,
            top: boxes[0]?.top ?? Number.NaN,
          };
        }
        return {
          text: item.textContent ?? "",
          overflows: item.scrollWidth > item.clientWidth,
          markRight: mark?.right ?? 0,
          textLeft: Math.min(...rects.map((rect) => rect.left)),
          firstTop: Math.min(...rects.map((rect) => rect.top)),
          phrases,
        };
      });
      return { pageWidth: document.documentElement.scrollWidth, items };
    });
    assert.ok(layout.pageWidth <= 360, `no sideways scrolling: ${layout.pageWidth}`);
    assert.equal(layout.items.length, 5);
    for (const item of layout.items) {
      assert.equal(item.overflows, false, `${item.text} stays within the list`);
      assert.ok(item.textLeft >= item.markRight, `${item.text}: every line starts after its mark`);
      for (const range of ["(a-z)", "(A-Z)", "(0-9)"]) {
        const phrase = item.phrases[range];
        if (phrase) assert.equal(phrase.lines, 1, `${item.text}: ${range} stays on one line`);
      }
    }
    const special = layout.items.find((item) => item.text.includes("special character"));
    const set = special?.phrases["!"];
    assert.ok(special && set && set.top > special.firstTop, "the special characters start a line of their own");
    await screenshot(page, "password-requirements-360");
  });

  test("an empty Current Password is named in the browser, and nothing is sent", async () => {
    const page = await suite.signedInPage(accounts.alice);
    await page.goto(`${suite.portal.url}/client/users/change-password`);
    await hydrated(page);
    let calls = 0;
    page.on("request", (request) => {
      if (request.url().includes("/password/")) calls++;
    });
    await changeTo(page, NEW_PASSWORD);
    await page.getByRole("alert").filter({ hasText: "Current Password is required." }).waitFor();
    assert.equal(calls, 0);
    assert.ok(await page.getByLabel("Current Password").evaluate((input) => input === document.activeElement));
    assert.doesNotMatch((await page.locator("main").textContent()) ?? "", /Invalid request|must NOT/);
  });

  test("the new-password rules show their messages in the requirements' order; a wrong current password is refused", async () => {
    const page = await suite.ownSessionPage(accounts.victor);
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
    assert.equal(new URL(page.url()).pathname, "/client/users/change-password", "no redirect on this page");
  });

  test("the reset panel: both views, the alert 5 s later, then the mailed link's page sets the next sign-in's password", async () => {
    const page = await newPage();
    const dialogs = await openResetPanel(page, suite.portal.url);
    await page.getByRole("heading", { name: "Password Reset" }).waitFor();
    await page.getByText("Enter the company short name and email address associated with your account.").waitFor();

    // The vendor panel asks for the e-mail address only.
    await page.getByRole("tab", { name: "VENDOR LOGIN" }).click();
    await page.getByText("Enter the email address associated with your account.").waitFor();
    assert.equal(await page.getByLabel("Company Short Name").count(), 0);
    await page.getByRole("tab", { name: "CLIENT LOGIN" }).click();

    // Only a required check applies, in the requirements' words: an empty submit sends nothing.
    const before = await lastMailId(suite.portal.sandboxUrl, "gary@globex.example");
    await page.getByRole("button", { name: "Reset Password" }).click();
    assert.ok(await page.getByLabel("Company Short Name").evaluate((input: HTMLInputElement) => !input.validity.valid));
    await page.getByRole("alert").filter({ hasText: "Company Short Name is required." }).waitFor();
    await page.getByLabel("Company Short Name").fill("GLOBEX");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.getByRole("alert").filter({ hasText: "Email Address is required." }).waitFor();

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
    await page.getByRole("button", { name: "Sign In", exact: true }).waitFor();

    const mail = await nextMail(suite.portal.sandboxUrl, "gary@globex.example", before);
    assert.doesNotMatch(mail, /password is/i, "the mail carries a link, never a password");
    await page.clock.resume();

    // The link opens the sandbox's page for a new password, under the same rules as the portal's forms.
    await openResetLink(page, suite.portal.url, mail);
    await screenshot(page, "reset-link");
    await setNewPassword(page, "Set New Password", NEW_PASSWORD, "Fresh-Other-2026!");
    await page.getByRole("alert").filter({ hasText: "New and confirm password do not match." }).waitFor();
    await setNewPassword(page, "Set New Password", NEW_PASSWORD);
    await page.getByRole("heading", { name: "Your password has been changed" }).waitFor();
    await page.getByRole("link", { name: "Go to the sign-in page" }).click();
    await hydrated(page);

    // The new password signs in, through the device's code as any sign-in.
    const codeMailBefore = await lastMailId(suite.portal.sandboxUrl, "gary@globex.example");
    await submitLogin(page, { site: "client", shortName: "GLOBEX", userName: "gary", password: NEW_PASSWORD });
    await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
    await enterCode(page, suite.portal.sandboxUrl, "gary@globex.example", codeMailBefore);
    await page.waitForURL(`${suite.portal.url}/client/home`);
  });

  test("leaving the reset panel cancels its 'Reset Password Email Sent.' alert", async () => {
    const page = await newPage();
    const dialogs = await openResetPanel(page, suite.portal.url);
    await page.getByLabel("Company Short Name").fill("ACME");
    await page.getByLabel("Email Address").fill("victor@acme.example");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.getByText("If there is an account associated with the email you've entered").waitFor();
    await page.getByRole("button", { name: "Return To Login" }).click();
    await page.getByRole("button", { name: "Sign In", exact: true }).waitFor();
    await page.clock.fastForward(10_000);
    await page.getByLabel("User ID").fill("still here"); // a round trip to the page after the timer's time
    assert.deepEqual(dialogs, [], "no alert over the login form");
  });

  test("a reset call refused for a company longer than the upstream takes says so, never the schema's text, and keeps the form", async () => {
    const page = await newPage();
    await openLogin(page, suite.portal.url);
    await page.getByRole("link", { name: "Reset Password" }).click();
    await page.getByLabel("Company Short Name").fill("G".repeat(300)); // longer than the upstream accepts
    await page.getByLabel("Email Address").fill("gary@globex.example");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.getByRole("alert").filter({ hasText: resetTexts.companyTooLong }).waitFor();
    assert.doesNotMatch((await page.locator("main").textContent()) ?? "", /Action Failed/, "the field is named");
    assert.doesNotMatch((await page.locator("main").textContent()) ?? "", /Invalid request|must NOT|characters/);
    assert.doesNotMatch((await page.locator("main").textContent()) ?? "", /not answering/, "the service did answer");
    assert.ok(await page.getByLabel("Email Address").isVisible(), "the entry view stays");
    assert.ok(await page.getByRole("button", { name: "Reset Password" }).isEnabled());
  });

  test("the reset panel keeps the company short name typed on the login form, on a phone too", async () => {
    for (const options of [{}, PHONE]) {
      const page = await suite.newPage(options);
      await openLogin(page, suite.portal.url);
      await page.getByLabel("Company Short Name").fill("ACME");
      await page.getByRole("link", { name: "Reset Password" }).click();
      await page.getByRole("heading", { name: "Password Reset" }).waitFor();
      assert.equal(await page.getByLabel("Company Short Name").inputValue(), "ACME");
      assert.equal(await page.getByLabel("Email Address").inputValue(), "");
    }
  });
});

describe("a reload during the forced password change", () => {
  const suite = browserSuite();

  test("a reload shows the same sign-in step, unframed, with 'Use another account', and asks for the current password again", async () => {
    const page = await suite.newPage();
    await signInAs(page, suite.portal, accounts.paula);
    await page.getByText(mfaTexts.passwordExpired).waitFor();
    await page.reload();
    await hydrated(page);
    await page.getByText(mfaTexts.passwordExpired).waitFor();
    assert.equal(await page.getByRole("button", { name: layoutTexts.signOut, exact: true }).count(), 0, "no Sign out");
    assert.equal(await page.locator(".site-header-account").count(), 0, "no signed-in header");
    await assertUsernameShownAsText(page, "paula");
    const current = page.getByLabel(passwordTexts.currentPassword, { exact: true });
    assert.equal(await current.inputValue(), "", "the password typed at sign-in is never stored");
    assert.equal(
      await page.locator(`#${await current.getAttribute("aria-describedby")}`).textContent(),
      mfaTexts.currentPasswordAgain,
      "the field says why it is asked again",
    );
    await screenshot(page, "expired-password-reloaded");

    await current.fill(DEMO_PASSWORD);
    await changeTo(page, NEW_PASSWORD);
    await page.waitForURL(`${suite.portal.url}/client/home`);
  });

  test("'Use another account' after a reload ends the sign-in and opens the login page", async () => {
    const page = await suite.newPage();
    await signInAs(page, suite.portal, accounts.petra);
    await page.getByText(mfaTexts.passwordExpired).waitFor();
    await page.reload();
    await hydrated(page);
    await page.getByRole("button", { name: mfaTexts.useAnotherAccount }).click();
    await page.getByRole("heading", { level: 1, name: "Sign In" }).waitFor();
    await page.goto(`${suite.portal.url}/mfa`);
    await page.getByRole("heading", { level: 1, name: "Sign In" }).waitFor();
  });
});

// The sign-in path in the browser: failed requests in section 8's words, the MFA step's way out and its
// counts, typed values kept across tabs and the last site remembered, headings and where the focus goes (and that it
// shows), remember me when a sign-in is cancelled.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { accounts } from "#harness/sign-in.ts";
import { DEMO_PASSWORD, screenshot } from "#tests/browser/harness.ts";
import { alerts, browserSuite, enterCode, lastMailId, openLogin, signInAs, submitLogin } from "#tests/browser/steps.ts";
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

/** Relative luminance of a CSS `rgb(...)` colour (WCAG 2.1). */
function luminance(colour: string): number {
  const [r = 0, g = 0, b = 0] = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map((value) => {
    const channel = Number(value) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (one: string, two: string) => {
  const [light, dark] = [luminance(one), luminance(two)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

/** What the login form of the page shows: its IDs and Remember me. */
const loginForm = async (page: Page) => ({
  shortName: (await page.getByLabel("Company Short Name").count())
    ? await page.getByLabel("Company Short Name").inputValue()
    : undefined,
  userName: await page.getByLabel("User ID").inputValue(),
  remember: await page.getByLabel("Remember me").isChecked(),
});
/** What this device remembers of the client login (requirements 3's local-storage keys). */
const remembered = (page: Page) =>
  page.evaluate(() => ({ shortName: localStorage.getItem("shortName"), userName: localStorage.getItem("userName") }));

/** From the MFA step: "Use another account", and the login page it leads to. */
async function useAnotherAccount(page: Page): Promise<void> {
  await page.getByRole("heading", { level: 1, name: "Verify This Device" }).waitFor();
  await page.getByRole("button", { name: "Use another account" }).click();
  await page.waitForURL(/\/\?activeSite=CLIENT$/);
  await page.getByRole("heading", { level: 1, name: "Sign In" }).waitFor();
  await page.waitForSelector(".login-box[data-ready]");
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

  test("UX #4 'Invalid Login', focused after a refused login, shows a focus ring in the colour of a focused field, in light and dark", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      const page = await newPage({ colorScheme });
      await openLogin(page, suite.portal.url);
      // Submitted with the mouse: the browser draws no ring of its own for a focus that follows a click.
      await submitLogin(page, { site: "client", shortName: "ACME", userName: "alice", password: "not-the-password" });
      // The message itself (the page's body holds its words too, and has the focus until the message takes it).
      await page.waitForFunction(() =>
        document.activeElement?.closest(".note")?.textContent?.includes("Invalid Login"),
      );
      const ring = await page.evaluate(() => {
        const note = document.activeElement?.closest(".note");
        const field = document.querySelector<HTMLInputElement>("#login-client-userName");
        if (!note || !field) return undefined;
        const style = getComputedStyle(note);
        const around = getComputedStyle(note.closest("article") ?? document.body).backgroundColor;
        // What a focused field of the site is drawn with (Pico's --pico-form-element-focus-color, ours: tertiary).
        const probe = document.createElement("span");
        probe.style.color = "var(--pico-form-element-focus-color)";
        field.after(probe);
        const fieldFocus = getComputedStyle(probe).color;
        probe.remove();
        return {
          style: style.outlineStyle,
          width: Number.parseFloat(style.outlineWidth),
          colour: style.outlineColor,
          around,
          fieldFocus,
        };
      });
      assert.ok(ring, "the focus is on a message");
      assert.equal(ring.style, "solid", `${colorScheme}: a ring is drawn`);
      assert.ok(ring.width >= 2, `${colorScheme}: at least 2 px wide (${ring.width})`);
      assert.equal(ring.colour, ring.fieldFocus, `${colorScheme}: the colour of a focused field`);
      const ratio = contrast(ring.colour, ring.around);
      assert.ok(ratio >= 3, `${colorScheme}: the ring stands out from the card behind it, ${ratio.toFixed(2)}:1`);
      await screenshot(page, `invalid-login-focus-${colorScheme}`);
    }
  });

  test("UX #6 'Use another account' leaves what the device remembers as it was: the cancelled account is not remembered, the one remembered before stays", async () => {
    // A device that remembers victor: the form opens with his IDs and Remember me checked (requirements 5).
    const page = await newPage();
    await openLogin(page, suite.portal.url);
    await page.evaluate(() => {
      localStorage.setItem("shortName", "ACME");
      localStorage.setItem("userName", "victor");
    });
    await openLogin(page, suite.portal.url);
    assert.deepEqual(await loginForm(page), { shortName: "ACME", userName: "victor", remember: true });
    // Someone else signs in on it, Remember me left checked, then cancels at the code.
    await page.getByLabel("User ID").fill("alice");
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await useAnotherAccount(page);
    assert.deepEqual(await remembered(page), { shortName: "ACME", userName: "victor" }, "victor is still remembered");
    assert.deepEqual(await loginForm(page), { shortName: "ACME", userName: "victor", remember: true });

    // A device that remembers nobody: Remember me checked for alice, then cancelled. The form is ready for another
    // account, as on any visit to a device that remembers nobody, and alice is not remembered.
    const fresh = await newPage();
    await openLogin(fresh, suite.portal.url);
    await fresh.getByLabel("Company Short Name").fill("ACME");
    await fresh.getByLabel("User ID").fill("alice");
    await fresh.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await fresh.getByLabel("Remember me").check();
    await fresh.getByRole("button", { name: "Login", exact: true }).click();
    await fresh.getByRole("heading", { level: 1, name: "Verify This Device" }).waitFor();
    // Reloaded while the code is awaited, then cancelled: the same.
    await openLogin(fresh, suite.portal.url);
    await useAnotherAccount(fresh);
    assert.deepEqual(await remembered(fresh), { shortName: null, userName: null }, "alice is not remembered");
    assert.deepEqual(await loginForm(fresh), { shortName: "", userName: "", remember: false });
    assert.match(await focused(fresh), /^login-client-shortName\|/, "the first empty field has the focus");

    // A sign-in carried through to the end is remembered, as before.
    const mailBefore = await lastMailId(suite.portal.sandboxUrl, accounts.gary.email);
    await fresh.getByLabel("Company Short Name").fill("GLOBEX");
    await fresh.getByLabel("User ID").fill("gary");
    await fresh.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await fresh.getByLabel("Remember me").check();
    await fresh.getByRole("button", { name: "Login", exact: true }).click();
    await fresh.getByRole("heading", { level: 1, name: "Verify This Device" }).waitFor();
    await enterCode(fresh, suite.portal.sandboxUrl, accounts.gary.email, mailBefore);
    await fresh.waitForURL(`${suite.portal.url}/client/home`);
    assert.deepEqual(await remembered(fresh), { shortName: "GLOBEX", userName: "gary" });
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

// The idle-timeout warning in a real browser, with an idle limit of one minute (so the warning, due a
// minute before the limit, shows at once): "Stay signed in" keeps the person on the page, and at the limit the
// page says where it is why the session ended, leading to the sign-in page, which says it too. It keeps clear of the
// screen's edges on a phone as on a desktop. Where scripts run, it counts down, "Stay signed in" keeps everything typed
// (no reload), it can be dismissed by its button or Escape, and it never covers the field being typed in; the
// expired-password step the sign-in page shows after the code has it too. Time passes on clocks the tests move (the
// portal's and the pages'), not by waiting.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { Page } from "playwright-core";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { accounts } from "#harness/sign-in.ts";
import { readManifest } from "#server/render/assets.ts";
import { clockedBrowserSuite } from "#tests/browser/clocked-suite.ts";
import { screenshot } from "#tests/browser/harness.ts";
import { signedOutAt, signInAs } from "#tests/browser/steps.ts";
import { assertAccessible } from "#tests/support/axe.ts";
import { IdleWarning, idleWarningStyle } from "#web/components/idle-warning.tsx";
import { errorTexts } from "#web/texts/errors.ts";
import { layoutTexts } from "#web/texts/layout.ts";
import { loginTexts } from "#web/texts/login-screen.ts";
import { mfaTexts } from "#web/texts/mfa.ts";
import { passwordTexts } from "#web/texts/password.ts";

/** The countdown's seconds ("Signing out in 0:57" → 57), read from the page. */
async function countdown(page: Page): Promise<number> {
  const text = (await page.locator(".idle-countdown").textContent()) ?? "";
  const [, minutes, seconds] = /(\d+):(\d\d)/.exec(text) ?? [];
  assert.ok(text.startsWith(layoutTexts.idleCountdown) && minutes && seconds, `a countdown: ${text}`);
  return Number(minutes) * 60 + Number(seconds);
}

describe("the idle-timeout warning", () => {
  const suite = clockedBrowserSuite({ env: { SESSION_IDLE_MINUTES: "1" } });

  test("UX review: the warning waits for its delay, then shows, with or without reduced motion", async () => {
    // The idle limit of this suite puts the delay at 0 s; a page with the pages' stylesheet and a 2 s delay shows the
    // rest: Chromium kept a step-end animation's `visibility` hidden after a delay, and Pico's reduced-motion rule
    // (every animation's delay -1ms) showed the warning at once.
    const html = `<!DOCTYPE html><html><head><link rel="stylesheet" href="${readManifest().css}"><style>${idleWarningStyle("2")}</style></head><body><main><p>A page</p></main>${renderToStaticMarkup(createElement(IdleWarning, { path: "/vendor/inbox" }))}</body></html>`;
    for (const reducedMotion of ["no-preference", "reduce"] as const) {
      const page = await suite.newPage({ reducedMotion });
      const address = `${suite.portal.url}/idle-warning-delay`;
      await page.route(address, (route) => route.fulfill({ contentType: "text/html", body: html }));
      await page.goto(address);
      const warning = page.getByRole("alert").filter({ hasText: layoutTexts.idleWarning });
      await sleep(500);
      assert.equal(await warning.isVisible(), false, `hidden during its delay (${reducedMotion})`);
      await warning.waitFor({ state: "visible", timeout: 5_000 });
    }
  });

  test("the warning keeps a 16 px margin from the screen's edges: all round on a phone, in the corner on a desktop, where the page with it showing passes axe", async () => {
    for (const viewport of [
      { width: 360, height: 740 },
      { width: 1280, height: 800 },
    ]) {
      const page = await suite.signedInPage(accounts.vince, { viewport });
      const warning = page.getByRole("alert").filter({ hasText: layoutTexts.idleWarning });
      await warning.waitFor({ state: "visible" });
      const box = await warning.boundingBox();
      assert.ok(box, "the warning is laid out");
      const margins = {
        left: box.x,
        right: viewport.width - (box.x + box.width),
        bottom: viewport.height - (box.y + box.height),
      };
      const where = `${viewport.width} px: ${JSON.stringify(margins)}`;
      assert.equal(margins.right, 16, where);
      assert.equal(margins.bottom, 16, where);
      if (viewport.width < 24 * 16 + 32) assert.equal(margins.left, 16, `a phone, margins all round: ${where}`);
      else {
        assert.equal(box.width, 24 * 16, `a desktop, 24rem in the corner: ${where}`);
        await assertAccessible(page, "idle-timeout warning");
      }
      await screenshot(page, `idle-warning-${viewport.width}`);
    }
  });

  test("shows a minute before the limit; 'Stay signed in' keeps the page; at the limit, the page says why in words that count right, and so does the sign-in page it leads to", async () => {
    const page = await suite.signedInPage(accounts.vera);
    const { url } = suite.portal;
    await page.goto(`${url}/vendor/inbox`);
    const warning = page.getByRole("alert").filter({ hasText: layoutTexts.idleWarning });
    await warning.waitFor({ state: "visible" });
    await screenshot(page, "idle-warning");

    const stayed = page.waitForResponse(`${url}/session/stay`);
    await warning.getByRole("button", { name: layoutTexts.staySignedIn }).click();
    await stayed;
    await page.waitForURL(`${url}/vendor/inbox`);
    await page.getByRole("heading", { name: "Inbox" }).waitFor();

    // Left alone: the page asks at the limit (60 s + 2 s), and the session has ended; not before. The page says so
    // where it is, and leads to the sign-in page, which brings the person back to the page they were on.
    const ended = page.getByRole("alert").filter({ hasText: errorTexts.sessionExpired });
    await suite.pass(page, 59_000);
    assert.equal(await ended.count(), 0, "still signed in a second before the limit");
    await suite.pass(page, 4_000);
    await ended.waitFor();
    // The plural rules say "1 minute", not "1 minutes".
    assert.ok((await ended.textContent())?.includes("It ended after 1 minute without activity."));
    assert.equal(page.url(), `${url}/vendor/inbox`, "the page stayed");
    await screenshot(page, "idle-ended");
    await ended.getByRole("link", { name: mfaTexts.signInAgain }).click();
    await page.waitForURL(`${url}/?return=%2Fvendor%2Finbox`);
    const notice = await page.getByRole("alert").filter({ hasText: errorTexts.sessionExpired }).textContent();
    assert.ok(notice?.includes("It ended after 1 minute without activity."), String(notice));
  });

  test("'Stay signed in' restarts the countdown without leaving the page: three half-typed passwords are kept", async () => {
    const page = await suite.signedInPage(accounts.vince);
    await page.goto(`${suite.portal.url}/vendor/users/change-password`);
    // The change-password form's fields: the page also lists vince's other sessions still live (earlier tests'),
    // each with a password field of its own to end it.
    const form = page.locator("form:has(#change-password-current)");
    const typed = { current: "half-typed-1", next: "half-typed-2", confirm: "half-typed-3" };
    await form.getByLabel(passwordTexts.currentPassword, { exact: true }).fill(typed.current);
    await form.getByLabel(passwordTexts.newPassword, { exact: true }).fill(typed.next);
    await form.getByLabel(passwordTexts.confirmPassword, { exact: true }).fill(typed.confirm);
    const warning = page.getByRole("alert").filter({ hasText: layoutTexts.idleWarning });
    await warning.waitFor({ state: "visible" });
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await suite.pass(page, 3_000);
    const before = await countdown(page);
    assert.ok(before <= 58, `counting down: ${before} s`);
    await screenshot(page, "idle-warning-countdown");

    await warning.getByRole("button", { name: layoutTexts.staySignedIn }).click();
    await page.waitForFunction((left) => {
      const text = document.querySelector(".idle-countdown")?.textContent ?? "";
      const [, m, s] = /(\d+):(\d\d)/.exec(text) ?? [];
      return Number(m) * 60 + Number(s) > left;
    }, before);
    assert.ok((await countdown(page)) >= 58, "the idle time started again");
    assert.equal(await page.evaluate(() => "sameDocument" in window), true, "the page was not loaded again");
    assert.equal(await form.getByLabel(passwordTexts.currentPassword, { exact: true }).inputValue(), typed.current);
    assert.equal(await form.getByLabel(passwordTexts.newPassword, { exact: true }).inputValue(), typed.next);
    assert.equal(await form.getByLabel(passwordTexts.confirmPassword, { exact: true }).inputValue(), typed.confirm);
  });

  test("the warning can be dismissed, by its button or by Escape, and offers 'Sign out now'", async () => {
    const page = await suite.signedInPage(accounts.vince);
    const warning = page.getByRole("alert").filter({ hasText: layoutTexts.idleWarning });
    await warning.waitFor({ state: "visible" });
    await page.keyboard.press("Escape");
    await warning.waitFor({ state: "hidden" });
    await page.reload();
    await warning.waitFor({ state: "visible" });
    await warning.getByRole("button", { name: layoutTexts.dismissIdleWarning }).click();
    await warning.waitFor({ state: "hidden" });
    await page.reload();
    await warning.getByRole("button", { name: layoutTexts.signOutNow }).click();
    await signedOutAt(page, suite.portal.url);
    await page.getByRole("heading", { name: "Sign In" }).waitFor();
  });

  test("on a phone, the warning never covers the field being typed in, and stands out from the card behind it", async () => {
    const page = await suite.signedInPage(accounts.vince, { viewport: { width: 360, height: 740 } });
    await page.goto(`${suite.portal.url}/vendor/users/change-password`);
    const warning = page.getByRole("alert").filter({ hasText: layoutTexts.idleWarning });
    await warning.waitFor({ state: "visible" });
    const confirm = page.getByLabel(passwordTexts.confirmPassword, { exact: true });
    await confirm.focus();
    await page.keyboard.type("abc");
    await page.waitForFunction(() => {
      const field = document.activeElement?.getBoundingClientRect();
      const warning = document.querySelector(".idle-warning")?.getBoundingClientRect();
      return field && warning && field.bottom <= warning.top;
    }); // the scroll
    const field = await confirm.boundingBox();
    const box = await warning.boundingBox();
    assert.ok(field && box, "both laid out");
    assert.ok(
      field.y + field.height <= box.y,
      `the field (${field.y}–${field.y + field.height}) above the warning (${box.y})`,
    );
    const edge = await warning.locator("article").evaluate((article) => getComputedStyle(article).borderLeftWidth);
    assert.ok(Number.parseFloat(edge) >= 4, `a coloured edge: ${edge}`);
    await screenshot(page, "idle-warning-phone-field");
  });

  test("the warning follows the server's clock: a page opened in another tab restarts the countdown in this one", async () => {
    const first = await suite.signedInPage(accounts.vince);
    await first.getByRole("alert").filter({ hasText: layoutTexts.idleWarning }).waitFor({ state: "visible" });
    // Longer than the span within which the session keeps `seen` as it was (a tenth of this suite's idle limit,
    // server/session/plugin.ts): the page opened next is an action the server counts, as any other is.
    await suite.pass(first, 7_000);
    const before = await countdown(first);
    const second = await first.context().newPage();
    await second.goto(`${suite.portal.url}/vendor/inbox`);
    await first.waitForFunction((left) => {
      const [, m, s] = /(\d+):(\d\d)/.exec(document.querySelector(".idle-countdown")?.textContent ?? "") ?? [];
      return Number(m) * 60 + Number(s) > left;
    }, before);
  });

  test("signing out in one tab: the other tabs of the browser say so where they are, leading to the sign-in page", async () => {
    const first = await suite.signedInPage(accounts.vince);
    const second = await first.context().newPage();
    await second.goto(`${suite.portal.url}/vendor/inbox`);
    await second.getByRole("heading", { name: "Inbox" }).waitFor();
    await first.getByRole("button", { name: layoutTexts.signOut, exact: true }).click();
    const told = second.getByRole("alert").filter({ hasText: loginTexts.signedOut });
    await told.waitFor();
    assert.equal(second.url(), `${suite.portal.url}/vendor/inbox`);
    await told.getByRole("link", { name: mfaTexts.signInAgain }).click();
    await second.getByRole("heading", { name: loginTexts.heading }).waitFor();
  });

  test("signing out in one tab while another tab's ask is on its way: that tab says the sign-out's words, and so does the sign-in page it leads to", async () => {
    const first = await suite.signedInPage(accounts.vince);
    const second = await first.context().newPage();
    await second.goto(`${suite.portal.url}/vendor/inbox`);
    await second.getByRole("heading", { name: "Inbox" }).waitFor();
    const signedIn = await first.context().cookies();
    // The second tab's asks leave with the session's cookie before the sign-out's answer, and arrive after it: held
    // until the sign-out is through, and sent with the cookie the browser held when they left.
    let signedOut = () => {};
    const out = new Promise<void>((resolve) => {
      signedOut = resolve;
    });
    await second.route("**/session/idle*", async (route) => {
      await out;
      await route.continue();
    });
    await first.getByRole("button", { name: layoutTexts.signOut, exact: true }).click();
    await first.getByText(loginTexts.signedOut).waitFor();
    await first.context().addCookies(signedIn);
    signedOut();
    const told = second.getByRole("alert").filter({ hasText: loginTexts.signedOut });
    await told.waitFor();
    assert.equal(await second.getByText(errorTexts.sessionExpired).count(), 0, "no word of an expiry");
    await told.getByRole("link", { name: mfaTexts.signInAgain }).click();
    await second.getByRole("heading", { name: loginTexts.heading }).waitFor();
    await second.getByText(loginTexts.signedOut).waitFor();
  });

  test("the expired-password step the sign-in page shows after the code warns too, and keeps the new password typed past the limit", async () => {
    const page = await suite.newPage();
    await signInAs(page, suite.portal, accounts.petra);
    await page.getByText(mfaTexts.passwordExpired).waitFor();
    assert.equal(new URL(page.url()).pathname, "/", "still the sign-in page, loaded before the sign-in");
    await page.getByLabel(passwordTexts.newPassword, { exact: true }).fill("Typed-Past-The-Limit-2026!");
    const warning = page.getByRole("alert").filter({ hasText: layoutTexts.idleWarning });
    await warning.waitFor({ state: "visible" });
    await screenshot(page, "idle-warning-expired-step");
    await suite.pass(page, 63_000);
    const ended = page.getByRole("alert").filter({ hasText: errorTexts.sessionExpired });
    await ended.waitFor();
    assert.ok((await ended.textContent())?.includes("It ended after 1 minute without activity."));
    assert.equal(
      await page.getByLabel(passwordTexts.newPassword, { exact: true }).inputValue(),
      "Typed-Past-The-Limit-2026!",
      "what was typed stays",
    );
  });
});

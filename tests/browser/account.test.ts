// The account sections in the browser, on a desktop and a phone, light and dark: "Where you're signed in" lists the
// sessions, one is ended and then all, the password change's box ends the others, and the home page names the last
// sign-in; axe finds nothing, and a phone never scrolls sideways.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { accounts } from "#harness/sign-in.ts";
import { DEMO_PASSWORD, readmeScreenshot, screenshot } from "#tests/browser/harness.ts";
import { browserSuite, openLogin, signInAs, submitLogin } from "#tests/browser/steps.ts";
import { assertAccessible, COLOR_SCHEMES, settled } from "#tests/support/axe.ts";
import { backgroundsUnder, composite, contrast, parseColour } from "#tests/support/colours.ts";

const DEVICES = { desktop: { width: 1280, height: 800 }, phone: { width: 360, height: 740 } } as const;
const PAGE = "/client/users/change-password";

/** The browsers that passed alice's code once: their stored code passes silently at their next sign-in (4.2). */
const remembered = new WeakSet<Page>();

/** Signed in, and the landing page loaded: a navigation started before it would abort the sign-in's own. */
async function signedIn(page: Page, portal: Parameters<typeof signInAs>[1]): Promise<void> {
  if (remembered.has(page)) {
    await openLogin(page, portal.url);
    await submitLogin(page, { site: "client", shortName: "ACME", userName: "alice", password: DEMO_PASSWORD });
  } else await signInAs(page, portal, accounts.alice);
  remembered.add(page);
  await page.waitForURL(/\/client\//);
  await page.waitForLoadState("load");
}

const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent ?? "");

/** Back from ending sessions: at "Where you're signed in", its note holding the focus, in view. */
async function resultFocused(page: Page, text: string): Promise<void> {
  assert.equal(new URL(page.url()).hash, "#sessions");
  const note = page.locator("#sessions .note:focus");
  await note.waitFor({ timeout: 5000 });
  assert.match((await note.textContent()) ?? "", new RegExp(text), "the sessions section's note has the focus");
  assert.ok(await note.evaluate(inViewport), "and it is on the screen");
}

const inViewport = (element: Element) => {
  const { top, bottom } = element.getBoundingClientRect();
  return top >= 0 && bottom <= window.innerHeight;
};

const noSidewaysScroll = (page: Page, width: number) =>
  page.evaluate((limit) => document.documentElement.scrollWidth <= limit, width);

for (const [device, viewport] of Object.entries(DEVICES)) {
  describe(`account security on a ${device}`, () => {
    const suite = browserSuite();
    const { newPage } = suite;

    test("the list, ending one session, ending all, the box on a password change, the last sign-in", async () => {
      const other = await newPage({ viewport: DEVICES.desktop });
      await signedIn(other, suite.portal);
      const page = await newPage({ viewport });
      await signedIn(page, suite.portal);

      // The last sign-in on the home page: the other browser's.
      await page.goto(`${suite.portal.url}/client/home`);
      await page.getByText(/Last signed in .* from Chrome on Linux/).waitFor();

      await page.goto(`${suite.portal.url}${PAGE}`);
      const list = page.locator(".sessions > li");
      assert.equal(await list.count(), 2);
      assert.match((await list.first().textContent()) ?? "", /This device/);
      assert.ok(await noSidewaysScroll(page, viewport.width), "no sideways scrolling");
      await assertAccessible(page, `where you're signed in (${device})`, (scheme) =>
        readmeScreenshot(page, `account-security-${scheme}-${device}`),
      );

      // One session: a wrong password ends nothing, the right one ends it.
      await page.locator(".end-session summary").first().click();
      const oneForm = page.locator(".end-session form").first();
      await oneForm.getByLabel("Current Password").fill("Not-The-Password-1!");
      await oneForm.getByRole("button", { name: "Sign out" }).click();
      await page.getByText("The current password is not right").waitFor();
      await page.locator(".end-session summary").first().click();
      await oneForm.getByLabel("Current Password").fill(DEMO_PASSWORD);
      await oneForm.getByRole("button", { name: "Sign out" }).click();
      await page.getByText("1 other session was signed out.").waitFor();
      assert.equal(await page.locator(".sessions > li").count(), 1);
      await resultFocused(page, "1 other session was signed out.");
      await other.goto(`${suite.portal.url}/client/home`);
      assert.equal(new URL(other.url()).pathname, "/", "the other browser is back at the sign-in page");

      // All: two others end.
      for (const extra of [other, await newPage({ viewport: DEVICES.desktop })]) await signedIn(extra, suite.portal);
      await page.reload();
      const allForm = page.locator("form.end-sessions").last();
      await allForm.getByLabel("Current Password").fill(DEMO_PASSWORD);
      await allForm.getByRole("button", { name: "Sign out of all other devices" }).click();
      await page.getByText("2 other sessions were signed out.").waitFor();
      await resultFocused(page, "2 other sessions were signed out.");
      assert.ok(await noSidewaysScroll(page, viewport.width));
      await assertAccessible(page, `sessions ended (${device})`);

      // A password change with its box checked (the default) ends the other session, which leaves the list at once.
      await signedIn(other, suite.portal);
      await page.goto(`${suite.portal.url}${PAGE}`);
      assert.equal(await page.locator(".sessions > li").count(), 2);
      const changesBefore = await page.locator(".activity li", { hasText: "Password changed" }).count();
      const box = page.getByLabel("Sign out of other devices");
      assert.equal(await box.isChecked(), true, "checked by default");
      const changed = `Account-${device}-2026!`;
      await page.locator("#change-password-current").fill(DEMO_PASSWORD);
      await page.locator("#change-password-next").fill(changed);
      await page.locator("#change-password-confirm").fill(changed);
      await page.getByRole("button", { name: "Change Password", exact: true }).click();
      await page.getByText("Password Successfully Changed!").waitFor();
      await page.getByText("1 other session was signed out.").waitFor();
      await page.locator(".sessions > li").nth(1).waitFor({ state: "detached" });
      assert.match((await page.locator(".sessions > li").textContent()) ?? "", /This device/);
      assert.equal(await page.getByRole("button", { name: "Sign out of all other devices" }).count(), 0);
      await page.getByText("No other device is signed in.").waitFor();
      await page.locator(".activity li", { hasText: "Password changed" }).nth(changesBefore).waitFor();
      assert.match(await focusedText(page), /Password Successfully Changed!/, "the focus stays on the form's answer");
      await other.goto(`${suite.portal.url}/client/home`);
      assert.equal(new URL(other.url()).pathname, "/");
    });
  });
}

describe("the list of where you're signed in", () => {
  const suite = browserSuite();

  test("This device comes first; another session's Sign out is a button-sized control naming it; signing out the others stands apart, under its own heading", async () => {
    const page = await suite.newPage({ viewport: DEVICES.desktop });
    await signedIn(page, suite.portal);
    // Signed in after this device: the server lists it first, newest sign-in first.
    await signedIn(await suite.newPage({ viewport: DEVICES.desktop }), suite.portal);
    for (const [device, viewport] of Object.entries(DEVICES)) {
      await page.setViewportSize(viewport);
      await page.goto(`${suite.portal.url}${PAGE}`);
      const rows = page.locator(".sessions > li");
      assert.equal(await rows.count(), 2);
      assert.match((await rows.first().textContent()) ?? "", /This device/, `${device}: This device first`);
      const control = rows.nth(1).locator("summary");
      assert.match(
        (await control.textContent()) ?? "",
        /^Sign out of .+, .+/,
        `${device}: its name says which session`,
      );
      const box = await control.boundingBox();
      assert.ok(box && box.height >= 44 && box.width >= 44, `${device}: a 44 px target, not ${JSON.stringify(box)}`);
      for (const colorScheme of COLOR_SCHEMES) {
        await page.emulateMedia({ colorScheme });
        await settled(page);
        const drawn = await control.evaluate((summary) => {
          const style = getComputedStyle(summary);
          return {
            text: style.color,
            edge: style.borderTopColor,
            width: style.borderTopWidth,
            body: getComputedStyle(document.body).color,
          };
        });
        const under = composite(await backgroundsUnder(control));
        const [text, edge, body] = [drawn.text, drawn.edge, drawn.body].map((colour) =>
          composite([under, parseColour(colour) ?? under]),
        );
        const where = `${device} (${colorScheme})`;
        assert.notDeepEqual(text, body, `${where}: not in the body's colour`);
        assert.ok(contrast(text ?? under, under) >= 4.5, `${where}: its words read, ${drawn.text}`);
        assert.ok(Number.parseFloat(drawn.width) >= 1, `${where}: edged like a button`);
        assert.ok(contrast(edge ?? under, under) >= 3, `${where}: its edge shows, ${drawn.edge}`);
      }
      await page.emulateMedia({ colorScheme: "light" });
      const all = page.getByRole("button", { name: "Sign out of all other devices" });
      const apart = await all.evaluate((button) => {
        const list = document.querySelector(".sessions") as HTMLElement;
        const block = button.closest(".end-all") as HTMLElement | null;
        return {
          inRow: button.closest("li") !== null,
          heading: block?.querySelector("h3")?.textContent,
          gap: (block?.getBoundingClientRect().top ?? 0) - list.getBoundingClientRect().bottom,
          closed: Number.parseFloat(getComputedStyle(list).borderBottomWidth),
        };
      });
      assert.equal(apart.inRow, false, `${device}: not in the last row`);
      assert.equal(apart.heading, "Sign out everywhere else", `${device}: under its own heading`);
      assert.ok(
        apart.gap >= 16 && apart.closed >= 1,
        `${device}: apart from the closed list (${JSON.stringify(apart)})`,
      );
      assert.ok(await noSidewaysScroll(page, viewport.width), `${device}: no sideways scrolling`);
      await screenshot(page, `account-sessions-list-${device}`);
    }
    await assertAccessible(page, "where you're signed in, two sessions");
  });
});

describe("the account page's times", () => {
  const suite = browserSuite();

  test("Where you're signed in and Recent security activity give each time's year and time zone", async () => {
    const page = await suite.newPage({ viewport: DEVICES.desktop, timezoneId: "Asia/Tokyo" });
    await signedIn(page, suite.portal);
    await page.goto(`${suite.portal.url}${PAGE}`);
    // "Tuesday, 24 November 2026 at 19:42 GMT+9": Tokyo's zone, as the browser gave it at sign-in.
    const full = /\w+, \d{1,2} \w+ \d{4} at \d\d:\d\d\sGMT\+9/; // the zone kept on its time's line
    const texts = async (rows: string) => page.locator(rows).allInnerTexts();
    const sessions = await texts(".sessions > li");
    const activity = await texts("ul.activity > li");
    assert.ok(sessions.length > 0 && activity.length > 0, "both lists have rows");
    for (const row of [...sessions, ...activity]) assert.match(row, full);
    await page.locator("#activity-heading").scrollIntoViewIfNeeded();
    await screenshot(page, "account-times-with-year-and-zone");
  });
});

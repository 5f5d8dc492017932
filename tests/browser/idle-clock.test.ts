// Only a person restarts the idle clock, in a real browser with two tabs and a 12 s idle limit: each tab's own
// Refresh (to /session/idle, and back to its page while the session lives) never keeps the session alive, so it ends
// at the limit after the last action, in every tab; "Stay signed in" in either tab still restarts it.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { Page } from "playwright-core";
import { accounts } from "#harness/sign-in.ts";
import { browserSuite, signInAs } from "#tests/browser/steps.ts";
import { layoutTexts } from "#web/texts/layout.ts";

const IDLE_MS = 12_000;
/** A Refresh asks 2 s after the limit it was written for; a tab may need one more round to learn of a later action. */
const LATE_MS = 8_000;

describe("the idle clock with two tabs", () => {
  const suite = browserSuite({ env: { SESSION_IDLE_MINUTES: String(IDLE_MS / 60_000) } });

  /** Signed in in one tab, then (5 s later, so the first tab's Refresh falls inside the limit) a second tab. */
  async function twoTabs(): Promise<{ first: Page; second: Page; opened: number }> {
    const first = await suite.newPage();
    await signInAs(first, suite.portal, accounts.vince);
    await first.waitForURL(/\/vendor\//);
    await sleep(5_000);
    const second = await first.context().newPage();
    await second.goto(`${suite.portal.url}/vendor/home`);
    const opened = Date.now();
    return { first, second, opened };
  }

  /** When both tabs have reached the sign-in page by themselves, in ms since `from`. */
  async function bothSignedOut(tabs: Page[], from: number): Promise<number> {
    await Promise.all(tabs.map((tab) => tab.waitForURL(/\/\?return=/, { timeout: IDLE_MS * 3 })));
    return Date.now() - from;
  }

  test("the session ends at the limit after the last action, in every tab, though each tab's Refresh comes back to a live session", async () => {
    const { first, second, opened } = await twoTabs();
    const ended = await bothSignedOut([first, second], opened);
    assert.ok(ended >= IDLE_MS, `not before the limit: ${ended} ms`);
    assert.ok(ended <= IDLE_MS + LATE_MS, `soon after it: ${ended} ms`);
    const section = await first.context().request.get(`${suite.portal.url}/vendor/home`, { maxRedirects: 0 });
    assert.equal(section.status(), 302, "the session has ended");
  });

  for (const which of ["first", "second"] as const) {
    test(`"Stay signed in" in the ${which} tab restarts the idle time`, async () => {
      const tabs = await twoTabs();
      await sleep(IDLE_MS / 2);
      const tab = tabs[which];
      await tab.getByRole("button", { name: layoutTexts.staySignedIn }).click();
      await tab.waitForURL(/\/vendor\//);
      const stayed = Date.now();
      // Past the limit the second tab's opening set, the session lives: both tabs are still on their pages.
      await sleep(Math.max(0, tabs.opened + IDLE_MS + 2_500 - Date.now()));
      for (const page of [tabs.first, tabs.second]) assert.match(page.url(), /\/vendor\//, "still signed in");
      const ended = await bothSignedOut([tabs.first, tabs.second], stayed);
      assert.ok(ended >= IDLE_MS - 1_000, `not before the limit after "Stay signed in": ${ended} ms`);
      assert.ok(ended <= IDLE_MS + LATE_MS, `soon after it: ${ended} ms`);
    });
  }
});

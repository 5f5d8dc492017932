// Only a person restarts the idle clock, in a real browser with two tabs and a 12 s idle limit: each tab's own checks
// (of /session/idle, at its limit and every few seconds) never keep the session alive, so it ends at the limit after
// the last action, and every tab says so, with why; "Stay signed in" in either tab still restarts it. Time passes on
// clocks the tests move (the portal's and the tabs'), half a second at a time, not by waiting.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { accounts } from "#harness/sign-in.ts";
import { clockedBrowserSuite } from "#tests/browser/clocked-suite.ts";
import { layoutTexts } from "#web/texts/layout.ts";
import { loginTexts } from "#web/texts/login-screen.ts";

const IDLE_MS = 12_000;
/** A tab asks 2 s after the limit it knows of, and every few seconds; it may need one more round for a later action. */
const LATE_MS = 8_000;
/** How much time each step lets pass: the precision of the times measured. */
const STEP_MS = 500;

describe("the idle clock with two tabs", () => {
  const suite = clockedBrowserSuite({ env: { SESSION_IDLE_MINUTES: String(IDLE_MS / 60_000) } });

  /** Signed in in one tab, then (5 s later, so the first tab's check at its limit falls inside the session's) a second tab. */
  async function twoTabs(): Promise<{ first: Page; second: Page; opened: number }> {
    const first = await suite.signedInPage(accounts.vince);
    listen(first);
    await suite.pass(first, 5_000);
    const second = await first.context().newPage();
    listen(second);
    // Read before the load, which the portal counts at or after it: a slow load cannot make the session seem to end early.
    const opened = suite.now();
    await second.goto(`${suite.portal.url}/vendor/home`);
    return { first, second, opened };
  }

  /** The tabs the portal told that their session ended (a check's answer, which the tab then tells the others). */
  const told = new WeakSet<Page>();
  const listen = (tab: Page) =>
    tab.on("response", (answer) => {
      if (answer.url().includes("/session/idle") && answer.status() === 401) told.add(tab);
    });

  /** When the portal told a tab the session ended, in ms since `from` (on the clocks the test moves); both say so. */
  async function bothTold(tabs: Page[], from: number): Promise<number> {
    await suite.passUntil(tabs[0] as Page, () => tabs.some((tab) => told.has(tab)), {
      stepMs: STEP_MS,
      limitMs: IDLE_MS * 3,
      what: "a tab told the session ended",
    });
    const ended = suite.now() - from;
    // Each says why where it is, the idle limit: the tab told first tells the other.
    for (const tab of tabs) {
      await tab
        .getByRole("alert")
        .filter({ hasText: loginTexts.endedIdle(IDLE_MS / 60_000) })
        .waitFor();
      assert.match(tab.url(), /\/vendor\//, "on its own page still");
    }
    return ended;
  }

  /** Lets time pass, a step at a time, until `at` on the clocks the test moves. */
  const passTo = (tab: Page, at: number) =>
    suite.passUntil(tab, () => suite.now() >= at, { stepMs: STEP_MS, limitMs: IDLE_MS * 3, what: `time ${at}` });

  test("the session ends at the limit after the last action, in every tab, though each tab's checks come back to a live session", async () => {
    const { first, second, opened } = await twoTabs();
    const ended = await bothTold([first, second], opened);
    assert.ok(ended >= IDLE_MS, `not before the limit: ${ended} ms`);
    assert.ok(ended <= IDLE_MS + LATE_MS, `soon after it: ${ended} ms`);
    const section = await first.context().request.get(`${suite.portal.url}/vendor/home`, { maxRedirects: 0 });
    assert.equal(section.status(), 302, "the session has ended");
  });

  for (const which of ["first", "second"] as const) {
    test(`"Stay signed in" in the ${which} tab restarts the idle time`, async () => {
      const tabs = await twoTabs();
      await passTo(tabs.first, tabs.opened + IDLE_MS / 2);
      const tab = tabs[which];
      const kept = tab.waitForResponse(`${suite.portal.url}/session/stay`);
      await tab.getByRole("button", { name: layoutTexts.staySignedIn }).click();
      await kept;
      await tab.waitForURL(/\/vendor\//);
      const stayed = suite.now();
      // Past the limit the second tab's opening set, the session lives: both tabs are still on their pages.
      await passTo(tabs.first, tabs.opened + IDLE_MS + 2_500);
      for (const page of [tabs.first, tabs.second]) assert.match(page.url(), /\/vendor\//, "still signed in");
      const ended = await bothTold([tabs.first, tabs.second], stayed);
      assert.ok(ended >= IDLE_MS - 1_000, `not before the limit after "Stay signed in": ${ended} ms`);
      assert.ok(ended <= IDLE_MS + LATE_MS, `soon after it: ${ended} ms`);
    });
  }
});

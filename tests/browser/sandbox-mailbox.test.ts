// The sandbox's mailbox through the portal on a phone (sandbox/mail-page.ts, sandbox/html.ts): nothing wider than the
// screen down to 320 px, in light and in dark, and its links readable (4.5:1 measured from their computed colours, and
// axe's WCAG AA rules).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { sandboxPost, screenshot, startPortalInProcess } from "#tests/browser/harness.ts";
import { fileBrowser } from "#tests/browser/steps.ts";
import { assertAccessible, COLOR_SCHEMES } from "#tests/support/axe.ts";
import { backgroundsUnder, composite, contrast, parseColour } from "#tests/support/colours.ts";
import type { RunningPortal } from "#tests/support/portal.ts";

describe("the sandbox's mailbox on a phone", () => {
  let portal: RunningPortal;
  let page: Page;
  before(async () => {
    portal = await startPortalInProcess();
    // More mails than the page shows, each with a long link.
    for (let sent = 0; sent < 55; sent++) {
      await sandboxPost(portal.sandboxUrl, "/sandbox/link-login", { site: "vendor", username: "vince" });
    }
    const phone = { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true };
    page = await (await (await fileBrowser()).newContext(phone)).newPage();
  });
  after(async () => {
    await page?.context().close();
    await portal?.close();
  });

  test("at 320 px nothing is wider than the screen, in light and dark; older mails are said to be hidden", async () => {
    await page.goto(`${portal.url}/sandbox/mail`);
    for (const colorScheme of COLOR_SCHEMES) {
      await page.emulateMedia({ colorScheme });
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 320, `${colorScheme}: the page is ${width} px wide`);
      await screenshot(page, `sandbox-mailbox-phone-${colorScheme}`);
    }
    await page.getByRole("heading", { name: /the newest 50; older ones are not shown/ }).waitFor();
  });

  test("its links and texts pass WCAG AA, contrast included, in light and dark", async () => {
    await page.goto(`${portal.url}/sandbox/mail`);
    for (const colorScheme of COLOR_SCHEMES) {
      await page.emulateMedia({ colorScheme });
      const links = page.locator("main a");
      assert.ok((await links.count()) > 50, "the page's link and every mail's");
      for (const link of [links.first(), links.last()]) {
        const under = composite(await backgroundsUnder(link));
        const colour = parseColour(await link.evaluate((element) => getComputedStyle(element).color));
        const ratio = contrast(composite([under, colour ?? under]), under);
        assert.ok(ratio >= 4.5, `${colorScheme}: a link of ${ratio.toFixed(2)}:1`);
      }
    }
    await assertAccessible(page, "sandbox mailbox");
  });
});

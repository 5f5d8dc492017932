// Layout, measured in the browser: on a phone (360×740) the Sign In button shows without scrolling in both
// tabs, the header is compact and never wraps "Sign out", touch targets are at least 44 px; on a desktop the header
// is about 64 px and body text 16 px; the header names the user; support contacts are tel: and mailto: links; the
// splash beside the form shows its whole picture, however tall the card beside it. From 768 to 1023 px the
// card stands alone, centred, with no small splash over an empty column; every checkbox sits as close to its words as
// "Remember me"; a primary button stands out more than a secondary one beside it; on a phone the session-expired
// notice leaves the Sign In button in the first screen.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { accounts } from "#harness/sign-in.ts";
import { screenshot } from "#tests/browser/harness.ts";
import {
  browserSuite,
  expireWhileVerifying,
  hydrated,
  openLogin,
  signInAs,
  submitLogin,
} from "#tests/browser/steps.ts";
import { COLOR_SCHEMES, settled } from "#tests/support/axe.ts";
import { paintedColours } from "#tests/support/colours.ts";

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };
const TABLET = { width: 800, height: 1000 };
/** The narrowest width with the splash beside the card. */
const SPLASH_FROM = { width: 1024, height: 768 };

/** The gap in px between a checkbox's right edge and the first words of its label. */
const gapToWords = (input: HTMLInputElement) => {
  const label = input.labels?.[0];
  if (!label) return Number.NaN;
  const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
  let node = walker.nextNode();
  while (node && !node.textContent?.trim()) node = walker.nextNode();
  if (!node) return Number.NaN;
  const range = document.createRange();
  range.selectNodeContents(node);
  return range.getBoundingClientRect().left - input.getBoundingClientRect().right;
};

type Rgb = [number, number, number];
/** WCAG's relative luminance of an sRGB colour. */
const luminance = (rgb: Rgb) => {
  const [r, g, b] = rgb.map((channel) => {
    const value = channel / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
/** WCAG's contrast ratio of two colours, 1 to 21. */
const contrast = (one: Rgb, other: Rgb) => {
  const [light, dark] = [luminance(one), luminance(other)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};
/** How colourful a colour is: its largest channel less its smallest, 0 (grey) to 255. */
const chroma = (rgb: Rgb) => Math.max(...rgb) - Math.min(...rgb);

/** Interactive elements of `scope` smaller than 44 px either way (inline links inside a sentence are exempt). */
async function smallTargets(page: Page, scope: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const small: string[] = [];
    const targets = document.querySelectorAll<HTMLElement>(
      `${selector} :is(a[href], button, input:not([type=hidden]), summary, select, textarea)`,
    );
    for (const element of targets) {
      if (!element.checkVisibility()) continue;
      if (element instanceof HTMLAnchorElement && getComputedStyle(element).display === "inline") continue;
      // A checkbox's target is its label, which the whole row is.
      const target = element instanceof HTMLInputElement && element.type === "checkbox" ? element.labels?.[0] : element;
      const box = (target ?? element).getBoundingClientRect();
      if (box.height < 44 || box.width < 44)
        small.push(`${element.tagName} "${(element.textContent || element.id).trim()}" ${box.width}×${box.height}`);
    }
    return small;
  }, scope);
}

/** Whether the element is inside the first screen, with no scrolling. */
const inFirstScreen = (page: Page, name: string) =>
  page
    .getByRole("button", { name, exact: true })
    .evaluate((element) => element.getBoundingClientRect().bottom <= window.innerHeight && window.scrollY === 0);

/** How far the portal's clock has been moved on, to end a session for being idle without waiting. */
let skipped = 0;

describe("layout on a phone and a desktop", () => {
  const suite = browserSuite({ env: { SESSION_IDLE_MINUTES: "30" }, now: () => Date.now() + skipped });
  const { newPage } = suite;

  test("the login page on a phone: the Sign In button in the first screen in both tabs, no splash, 44 px targets", async () => {
    const page = await newPage({ viewport: PHONE });
    const images: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "image" && request.url().includes("splash")) images.push(request.url());
    });
    await openLogin(page, suite.portal.url);
    assert.ok(await inFirstScreen(page, "Sign In"), "client tab: Sign In visible without scrolling");
    await page.getByRole("tab", { name: "VENDOR LOGIN" }).click();
    assert.ok(await inFirstScreen(page, "Sign In"), "vendor tab: Sign In visible without scrolling");
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360), "no sideways scrolling");
    assert.deepEqual(images, [], "the splash steps aside: nothing fetched for it");
    assert.deepEqual(await smallTargets(page, "main"), []);
    const header = await page.locator(".site-header").boundingBox();
    assert.ok(header && header.height <= 64, `a compact header: ${header?.height}`);
  });

  test("the splash shows its whole picture, uncropped, beside a tall card: both tabs, an error, the reset panel", async () => {
    for (const viewport of [DESKTOP, SPLASH_FROM]) {
      const page = await newPage({ viewport });
      await openLogin(page, suite.portal.url);
      /** The splash's box and the picture's own proportions, once the picture has loaded. */
      const splash = async () => {
        const image = page.locator("img.splash");
        await image.evaluate((img: HTMLImageElement) => img.decode());
        return image.evaluate((img: HTMLImageElement) => {
          const box = img.getBoundingClientRect();
          const card = document.querySelector(".login-card")?.getBoundingClientRect();
          return {
            box: box.width / box.height,
            picture: img.naturalWidth / img.naturalHeight,
            top: box.top,
            cardHeight: card?.height ?? 0,
            boxHeight: box.height,
          };
        });
      };
      const first = await splash();
      const states: [string, () => Promise<void>][] = [
        ["client tab", async () => {}],
        [
          "an error above the client form",
          async () => {
            await page.getByRole("button", { name: "Sign In", exact: true }).click();
            await page.getByRole("alert").waitFor();
          },
        ],
        ["vendor tab", () => page.getByRole("tab", { name: "VENDOR LOGIN" }).click()],
        [
          "reset panel",
          async () => {
            await page.getByRole("link", { name: "Reset Password" }).click();
            await page.getByRole("heading", { name: "Password Reset" }).waitFor();
          },
        ],
      ];
      for (const [name, step] of states) {
        await step();
        const now = await splash();
        const where = `${viewport.width}×${viewport.height}, ${name}`;
        assert.ok(
          Math.abs(now.box / now.picture - 1) < 0.01,
          `${where}: box ${now.box} for a picture of ${now.picture}`,
        );
        assert.ok(now.cardHeight > now.boxHeight, `${where}: the card is the taller (${now.cardHeight} px)`);
        assert.equal(now.top, first.top, `${where}: the splash stays put while the card changes`);
      }
      await screenshot(page, `login-splash-${viewport.width}`);
    }
  });

  test("support contacts are tel: and mailto: links that never break inside", async () => {
    const page = await newPage({ viewport: PHONE });
    await openLogin(page, suite.portal.url);
    const { phone, phoneUk, email } = suite.portal.config.support;
    const support = page.locator(".support");
    assert.match((await support.getByRole("link", { name: phone }).getAttribute("href")) ?? "", /^tel:\+?\d+$/);
    assert.match((await support.getByRole("link", { name: phoneUk }).getAttribute("href")) ?? "", /^tel:\+?\d+$/);
    assert.equal(await support.getByRole("link", { name: email }).getAttribute("href"), `mailto:${email}`);
    for (const name of [phone, phoneUk, email]) {
      const lines = await support.getByRole("link", { name }).evaluate((link) => link.getClientRects().length);
      assert.equal(lines, 1, `${name} stays on one line`);
    }
  });

  test("signed in on a phone: a one-line header naming the user, 'Sign out' on one line, 44 px targets", async () => {
    const page = await suite.signedInPage(accounts.alice, { viewport: PHONE });
    const signOut = page.getByRole("button", { name: "Sign out" });
    const lines = await signOut.evaluate((button) => {
      const range = document.createRange();
      range.selectNodeContents(button);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    assert.equal(lines, 1, "Sign out never wraps");
    const header = await page.locator(".site-header").boundingBox();
    assert.ok(header && header.height <= 64, `a compact header: ${header?.height}`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360), "no sideways scrolling");
    assert.deepEqual(await smallTargets(page, ".site-header"), []);
    await page.getByText("Menu", { exact: true }).click();
    assert.deepEqual(await smallTargets(page, "main"), []);
  });

  test("on a desktop: a header of about 64 px naming the user, body text at 16 px, the home's areas as cards", async () => {
    const page = await suite.signedInPage(accounts.victor, { viewport: DESKTOP });
    const header = await page.locator(".site-header").boundingBox();
    assert.ok(header && header.height >= 56 && header.height <= 72, `about 64 px: ${header?.height}`);
    assert.equal(await page.evaluate(() => getComputedStyle(document.body).fontSize), "16px");
    assert.match((await page.locator(".account").textContent()) ?? "", /victor/);
    // victor is view-only with service 1894: no batches, no pending invoices, no VIP; the patent and immigration
    // sections are offered to clients.
    const cards = await page.locator(".area-card h3").allTextContents();
    assert.ok(cards.includes("Invoices") && cards.includes("Reports"), cards.join(", "));
    assert.ok(!cards.includes("VIP") && !cards.includes("Batches"), cards.join(", "));
    assert.ok(cards.includes("Patent Fees") && cards.includes("Immigration Fees"), cards.join(", "));
    const invoices = await page
      .locator(".area-card", { hasText: "Invoices" })
      .first()
      .getByRole("link")
      .allTextContents();
    assert.ok(!invoices.includes("Invoice Entry") && !invoices.includes("Pending Invoices"), invoices.join(", "));
  });

  test("on a desktop the header is its own colour end to end, no card's shadow over it, and the footer lines up with the content, light and dark", async () => {
    const page = await suite.signedInPage(accounts.alice, { viewport: DESKTOP });
    for (const path of ["/client/home", "/client/reports/aging", "/client/users/change-password"]) {
      await page.goto(`${suite.portal.url}${path}`);
      for (const colorScheme of COLOR_SCHEMES) {
        await page.emulateMedia({ colorScheme });
        await settled(page);
        // The bar between the brand and the account, above its bottom edge: nothing is drawn there but the header.
        const bar = await page.evaluate(() => {
          const [header, brand, account] = [".site-header", ".brand", ".site-header-account"].map(
            (selector) => document.querySelector(selector)?.getBoundingClientRect() ?? new DOMRect(),
          ) as [DOMRect, DOMRect, DOMRect];
          const edge = getComputedStyle(document.querySelector(".site-header") as Element).borderBottomWidth;
          return {
            x: Math.ceil(brand.right) + 8,
            y: 0,
            width: Math.floor(account.left - brand.right) - 16,
            height: Math.floor(header.height - Number.parseFloat(edge)),
          };
        });
        const colours = await paintedColours(page, bar);
        const where = `${path} (${colorScheme})`;
        assert.equal(
          colours.size,
          1,
          `${where}: one colour across the header, not ${[...colours].slice(0, 6).join(" ")}`,
        );
        const [words, content] = await page.evaluate(() =>
          [".site-footer small", ".section-layout"].map(
            (selector) => document.querySelector(selector)?.getBoundingClientRect().left,
          ),
        );
        assert.ok(
          Math.abs((words ?? 0) - (content ?? Number.NaN)) < 1,
          `${where}: footer at ${words}, content at ${content}`,
        );
      }
    }
  });

  test("'Authenticating...' takes the place of the button just pressed: it covers no label or field, phone and desktop", async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await newPage({ viewport });
      await page.route("**/api/auth/client", () => {}); // the sign-in's answer never comes
      await openLogin(page, suite.portal.url);
      const button = await page.locator(".login-form [type=submit]").boundingBox();
      await submitLogin(page, {
        site: "client",
        shortName: "ACME",
        userName: "alice",
        password: "Not-Yet-Answered-1!",
      });
      await page.getByRole("status").filter({ hasText: "Authenticating..." }).waitFor();
      await screenshot(page, `login-authenticating-${viewport.width}`);
      const boxes = await page.evaluate(() => {
        const words = document.createRange();
        words.selectNodeContents(document.querySelector(".login-form .busy-overlay") as Node);
        const { top, bottom, left, right } = words.getBoundingClientRect();
        const others = [...document.querySelectorAll(".login-form :is(label, input)")].map((element) => {
          const box = element.getBoundingClientRect();
          return {
            name: element.textContent || element.id,
            top: box.top,
            bottom: box.bottom,
            left: box.left,
            right: box.right,
          };
        });
        return { words: { top, bottom, left, right }, others };
      });
      const { words, others } = boxes;
      const where = `${viewport.width} px`;
      for (const other of others) {
        const apart =
          words.bottom <= other.top ||
          words.top >= other.bottom ||
          words.right <= other.left ||
          words.left >= other.right;
        assert.ok(apart, `${where}: "Authenticating..." (${JSON.stringify(words)}) covers "${other.name}"`);
      }
      assert.ok(
        button && words.top >= button.y && words.bottom <= button.y + button.height,
        `${where}: the words stand where the button was (${JSON.stringify(words)}, button ${JSON.stringify(button)})`,
      );
    }
  });

  test("from 768 to 1023 px no small splash beside an empty column; the card stands alone, centred", async () => {
    for (const viewport of [TABLET, { width: 1000, height: 800 }]) {
      const page = await newPage({ viewport });
      const images: string[] = [];
      page.on("request", (request) => {
        if (request.resourceType() === "image" && request.url().includes("splash")) images.push(request.url());
      });
      await openLogin(page, suite.portal.url);
      for (const colorScheme of COLOR_SCHEMES) {
        await page.emulateMedia({ colorScheme });
        await settled(page);
        await screenshot(page, `login-${viewport.width}-${colorScheme}`);
      }
      const layout = await page.evaluate(() => {
        const card = document.querySelector(".login-card")?.getBoundingClientRect();
        const main = document.querySelector("main")?.getBoundingClientRect();
        const splash = document.querySelector("img.splash");
        const box = splash?.checkVisibility() ? splash.getBoundingClientRect() : undefined;
        return {
          card: { left: card?.left ?? 0, right: card?.right ?? 0, height: card?.height ?? 0 },
          main: { left: main?.left ?? 0, right: main?.right ?? 0 },
          splash: box ? { left: box.left, right: box.right, width: box.width, height: box.height } : undefined,
        };
      });
      const where = `${viewport.width} px`;
      const { card, main, splash } = layout;
      if (splash && (splash.right <= card.left || splash.left >= card.right)) {
        // Beside the card: the splash fills at least half of the column the card's height makes beside it.
        const column = (splash.right <= card.left ? card.left - main.left : main.right - card.right) * card.height;
        const filled = (splash.width * splash.height) / column;
        assert.ok(filled >= 0.5, `${where}: a ${splash.width}×${splash.height} splash fills ${filled} of its column`);
      } else {
        // Not beside it: the card is centred in the page, and no splash is fetched for nothing.
        const [left, right] = [card.left - main.left, main.right - card.right];
        assert.ok(Math.abs(left - right) <= 1, `${where}: the card centred, margins ${left} and ${right}`);
        if (!splash) assert.deepEqual(images, [], `${where}: nothing fetched for a splash not shown`);
      }
    }
  });

  test("'Show passwords' on the change-password page sits as close to its box as 'Remember me'", async () => {
    const login = await newPage({ viewport: DESKTOP });
    await openLogin(login, suite.portal.url);
    const remember = await login.getByLabel("Remember me").evaluate(gapToWords);
    const page = await suite.signedInPage(accounts.vince, { viewport: DESKTOP });
    await page.goto(`${suite.portal.url}/vendor/users/change-password`);
    await hydrated(page);
    await screenshot(page, "change-password-checkboxes");
    assert.ok(remember > 0 && remember < 16, `Remember me: ${remember} px`);
    const boxes = await page
      .locator(".change-password input[type=checkbox]")
      .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).labels?.[0]?.textContent ?? ""));
    assert.ok(boxes.length >= 2, `Show passwords and the other sessions' box: ${boxes.join(", ")}`);
    for (const name of boxes) {
      const gap = await page.getByLabel(name, { exact: true }).evaluate(gapToWords);
      assert.ok(Math.abs(gap - remember) <= 2, `"${name}": ${gap} px from its box, "Remember me" ${remember} px`);
    }
  });

  test("in the reset panel the primary Reset Password stands out more than Return To Login, light and dark", async () => {
    const page = await newPage({ viewport: DESKTOP });
    await openLogin(page, suite.portal.url);
    await page.getByRole("link", { name: "Reset Password" }).click();
    const panel = page.locator(".reset-panel");
    await panel.getByRole("heading", { name: "Password Reset" }).waitFor();
    await page.mouse.move(0, 0);
    for (const colorScheme of COLOR_SCHEMES) {
      await page.emulateMedia({ colorScheme });
      await settled(page);
      await screenshot(page, `reset-panel-buttons-${colorScheme}`);
      // Each fill as the eye sees it: the button's background over the card's over the page's, one pixel painted.
      const [card, primary, secondary] = await page.evaluate(() => {
        const [page, card, primary, secondary] = [
          "body",
          ".login-card",
          ".reset-panel button[type=submit]",
          ".reset-panel button[type=button]",
        ].map((selector) => {
          const element = document.querySelector(selector);
          return element ? getComputedStyle(element).backgroundColor : "transparent";
        });
        const canvas = document.createElement("canvas");
        canvas.width = 1;
        canvas.height = 1;
        const paint = canvas.getContext("2d", { willReadFrequently: true });
        if (!paint) return [];
        return [
          [page, card],
          [page, card, primary],
          [page, card, secondary],
        ].map((layers) => {
          paint.clearRect(0, 0, 1, 1);
          for (const layer of layers) {
            paint.fillStyle = layer ?? "transparent";
            paint.fillRect(0, 0, 1, 1);
          }
          return [...paint.getImageData(0, 0, 1, 1).data].slice(0, 3);
        });
      });
      const [onCard, primaryFill, secondaryFill] = [card, primary, secondary] as [Rgb, Rgb, Rgb];
      const measured = `${colorScheme}: card ${onCard}, primary ${primaryFill}, secondary ${secondaryFill}`;
      assert.ok(
        contrast(primaryFill, onCard) > contrast(secondaryFill, onCard),
        `${measured}: the primary's fill the further from the card (${contrast(primaryFill, onCard)} against ${contrast(secondaryFill, onCard)})`,
      );
      assert.ok(
        chroma(primaryFill) > chroma(secondaryFill),
        `${measured}: the primary's fill the more colourful (${chroma(primaryFill)} against ${chroma(secondaryFill)})`,
      );
    }
  });

  test("on a phone the session-expired notice, however it came, leaves the Sign In button in the first screen", async () => {
    const ways: [string, string, () => Promise<Page>][] = [
      [
        "a client left idle",
        "idle",
        async () => {
          const page = await newPage({ viewport: PHONE });
          await signInAs(page, suite.portal, accounts.alice);
          await page.waitForURL(`${suite.portal.url}/client/home`);
          skipped += 31 * 60_000;
          await page.reload();
          await page.getByRole("alert").filter({ hasText: "It ended after 30 minutes without activity." }).waitFor();
          await hydrated(page);
          return page;
        },
      ],
      [
        "a vendor's token refused",
        "refused",
        async () => {
          const page = await newPage({ viewport: PHONE });
          await expireWhileVerifying(page, suite.portal, accounts.vince);
          return page;
        },
      ],
    ];
    for (const [way, name, expire] of ways) {
      const page = await expire();
      for (const colorScheme of COLOR_SCHEMES) {
        await page.emulateMedia({ colorScheme });
        await settled(page);
        await screenshot(page, `login-expired-phone-${name}-${colorScheme}`);
      }
      const login = await page.getByRole("button", { name: "Sign In", exact: true }).boundingBox();
      const bottom = login ? login.y + login.height : Number.NaN;
      assert.ok(bottom <= PHONE.height, `${way}: Sign In ends at ${bottom}`);
      assert.ok(await inFirstScreen(page, "Sign In"), `${way}: Sign In visible without scrolling`);
      // Nothing required steps aside for it: the notice, the heading, the tabs and every field are there.
      assert.ok(await page.getByRole("alert").isVisible(), `${way}: the notice`);
      assert.ok(await page.getByRole("heading", { level: 1, name: "Sign In" }).isVisible(), `${way}: the heading`);
      assert.equal(await page.getByRole("tab").count(), 2, `${way}: both tabs`);
      const client = await page.getByRole("tab", { name: "CLIENT LOGIN" }).getAttribute("aria-selected");
      const fields = client === "true" ? ["Company Short Name", "User ID", "Password"] : ["User ID", "Password"];
      for (const field of fields) {
        assert.ok(await page.getByLabel(field, { exact: true }).isVisible(), `${way}: ${field}`);
      }
      assert.ok(
        await page.evaluate(() => document.documentElement.scrollWidth <= 360),
        `${way}: no sideways scrolling`,
      );
      assert.deepEqual(await smallTargets(page, "main"), [], `${way}: 44 px targets`);
    }
  });
});

// The pages after sign-in as a finance clerk meets them, on a desktop and a phone: the support details, the skip
// link, a document page, the way back from another audience's section; the empty pages, the titles, the header.
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { accounts, DEMO_PASSWORD } from "#harness/sign-in.ts";
import { screenshot } from "#tests/browser/harness.ts";
import { browserSuite, hydrated, submitLogin } from "#tests/browser/steps.ts";
import { assertAccessible } from "#tests/support/axe.ts";
import { routes } from "#web/routes/table.ts";

// Long, as real ones are: on a phone it must wrap rather than widen the page.
const SUPPORT_EMAIL = "payments-support-desk@payments-portal.example";
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };

describe("the pages a finance clerk meets after sign-in", () => {
  const suite = browserSuite({ env: { SUPPORT_EMAIL } }, { viewport: DESKTOP });
  let alice: Page;
  let vera: Page;
  const url = (path: string) => `${suite.portal.url}${path}`;
  /** A phone page in the same session as `signedIn`. */
  const phoneOf = async (signedIn: Page) =>
    suite.newPage({ ...PHONE, storageState: await signedIn.context().storageState() });

  before(async () => {
    alice = await suite.signedInPage(accounts.alice);
    vera = await suite.signedInPage(accounts.vera);
  });

  /** The support page shows the login page's contacts as tel: and mailto: links, with requirements 1's sentence. */
  async function assertContacts(page: Page, path: string, heading: string) {
    await page.goto(url(path));
    await page.getByRole("heading", { level: 1, name: heading }).waitFor();
    const main = page.getByRole("main");
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's locator, not the DOM's property: the text a person sees
    assert.match(await main.innerText(), /Still having trouble\? Please contact us: \+1 \(800\) 555-0142 or \(UK\)/);
    const hrefs = await main.locator("a.contact").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    for (const href of ["tel:+18005550142", "tel:+442079460958", `mailto:${SUPPORT_EMAIL}`])
      assert.ok(hrefs.includes(href), `${path} links ${href}`);
    const phone = main.getByRole("link", { name: "+1 (800) 555-0142" }).first();
    assert.ok(await phone.isVisible(), "the phone shows");
  }

  test("bug 1: Support and Contact Us show the support phones and e-mail as links", async () => {
    await assertContacts(alice, "/client/support", "Support");
    await screenshot(alice, "clerk-support");
    await assertContacts(vera, "/vendor/contact-us", "Contact Us");
    // 360 px, and 320 px, the width WCAG 1.4.10 asks a page to reflow in.
    for (const width of [PHONE.viewport.width, 320]) {
      const phone = await suite.newPage({
        ...PHONE,
        viewport: { width, height: PHONE.viewport.height },
        storageState: await alice.context().storageState(),
      });
      await assertContacts(phone, "/client/support", "Support");
      // Against the screen's own width: a mobile browser widens its viewport to a page that overflows it.
      const wide = await phone.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= width, `no sideways scroll on a phone: ${wide} > ${width}`);
      await screenshot(phone, `clerk-support-phone-${width}`);
    }
  });

  /** Tabs to the skip link and checks that it is what the eye sees there: on top, on a solid background. */
  async function assertSkipLinkReadable(page: Page, where: string) {
    await page.goto(url("/client/reports/aging"));
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    assert.ok(await skip.evaluate((link) => link === document.activeElement), `${where}: the first Tab reaches it`);
    const seen = await skip.evaluate((link) => {
      const box = link.getBoundingClientRect();
      const onTop = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return { onTop: onTop === link || link.contains(onTop), background: getComputedStyle(link).backgroundColor };
    });
    assert.ok(seen.onTop, `${where}: nothing is drawn over it`);
    assert.match(seen.background, /^rgb\(/, `${where}: an opaque background, not ${seen.background}`);
  }

  test("bug 3: Skip to content is readable when focused, on a desktop and a phone", async () => {
    await assertSkipLinkReadable(alice, "desktop");
    await screenshot(alice, "clerk-skip-link");
    await assertSkipLinkReadable(await phoneOf(alice), "phone");
  });

  /** Follows the skip link with the keyboard, then Tabs once: where the focus lands, and the screen's first control. */
  async function skipThenTab(page: Page, path: string) {
    await page.goto(url(path));
    if (await page.locator("[data-island]").count()) await hydrated(page);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    return page.evaluate(() => {
      const screen = document.querySelector(".screen");
      const controls = screen?.querySelectorAll<HTMLElement>("a[href], button, input, select, textarea, summary");
      const first = [...(controls ?? [])].find((control) => control.checkVisibility());
      const focused = document.activeElement;
      return {
        focused: focused?.outerHTML.slice(0, 80),
        first: first?.outerHTML.slice(0, 80),
        same: focused === first,
      };
    });
  }

  test("Skip to content leads past the section's navigation: one Tab after it reaches the screen's first control", async () => {
    for (const page of [alice, await phoneOf(alice)])
      for (const path of ["/client/home", "/client/reports/aging", "/client/users/change-password"]) {
        const landed = await skipThenTab(page, path);
        assert.ok(landed.same, `${path}: ${landed.focused} is ${landed.first}`);
      }
    await assertAccessible(alice, "the screen as the skip link's target");
    await screenshot(alice, "clerk-skipped-to-screen");
  });

  test("bug 2: on a phone a document page offers Open the PDF and Download first, no empty frame", async () => {
    const phone = await phoneOf(alice);
    await phone.goto(url("/client/docs/bank-holidays"));
    const open = phone.getByRole("link", { name: "Open the PDF" });
    const download = phone.getByRole("link", { name: "Download BankHolidays.pdf" });
    for (const link of [open, download]) {
      const box = await link.boundingBox();
      assert.ok(box && box.y + box.height <= 740, "in the first screen");
      assert.equal(await link.getAttribute("href"), "/pdfs/BankHolidays.pdf");
    }
    assert.equal(await download.getAttribute("download"), "BankHolidays.pdf");
    assert.ok(!(await phone.locator("iframe.pdf-frame").isVisible()), "no frame the phone cannot fill");
    await screenshot(phone, "clerk-document-phone");

    await alice.goto(url("/client/docs/bank-holidays"));
    const frame = alice.locator("iframe.pdf-frame");
    assert.ok(await frame.isVisible(), "a desktop keeps the frame");
    assert.ok(await alice.getByRole("link", { name: "Open the PDF" }).isVisible());
  });

  test("bug 7: another audience's section is forbidden with the requirements' texts and a link to one's own home", async () => {
    for (const page of [alice, await phoneOf(alice)]) {
      const answer = await page.goto(url("/vendor/home"));
      assert.equal(answer?.status(), 403);
      // biome-ignore lint/performance/useDomNodeTextContent: Playwright's locator, not the DOM's property: the text a person sees
      const text = await page.getByRole("main").innerText();
      assert.match(text, /You Do Not Have Access To That Page/);
      assert.match(text, /Please contact your acccount administrator\./);
      await page.getByRole("link", { name: "Go to your home page" }).click();
      await page.waitForURL(url("/client/home"));
    }
  });
});

describe("what each page says it is, and where it leads", () => {
  const suite = browserSuite({}, { viewport: DESKTOP });
  let alice: Page;
  const url = (path: string) => `${suite.portal.url}${path}`;

  before(async () => {
    alice = await suite.signedInPage(accounts.alice);
  });

  test("every section page without content says what it is for, where it comes from, and where to go next", async () => {
    const empty = routes.filter((row) => row.section === "client" && row.screen === "about" && !row.path.includes(":"));
    assert.ok(empty.length > 30);
    for (const row of empty) {
      const answer = await alice.goto(url(row.path));
      if (answer?.status() === 403) continue; // a gate alice does not pass
      const main = alice.getByRole("main");
      // biome-ignore lint/performance/useDomNodeTextContent: Playwright's locator, not the DOM's property: the text a person sees
      const text = await main.innerText();
      assert.ok(text.includes(row.about ?? "?"), `${row.path} says its purpose`);
      assert.match(text, /come from the payments provider's systems/, row.path);
      assert.equal(
        await main.getByRole("link", { name: "Back to your home page" }).getAttribute("href"),
        "/client/home",
      );
      assert.equal(
        await main.getByRole("link", { name: "Support", exact: true }).getAttribute("href"),
        "/client/support",
      );
      const invented = text.replace(row.about ?? "", "").replace(row.title, "");
      assert.doesNotMatch(invented.replace(/W-8|G-1450/g, ""), /\d/, `${row.path} shows no figures or dates`);
    }
    await alice.goto(url("/client/reports/aging"));
    const related = alice.getByRole("list", { name: "Reports pages" });
    assert.ok(await related.getByRole("link", { name: "Weekly Report" }).isVisible(), "related pages of its group");
    assert.equal(await related.getByRole("link", { name: "Aging Report" }).count(), 0, "not itself");
    await screenshot(alice, "clerk-empty-state");
    const phone = await suite.newPage({ ...PHONE, storageState: await alice.context().storageState() });
    await phone.goto(url("/client/reports/aging"));
    assert.ok(await phone.getByRole("link", { name: "Back to your home page" }).isVisible());
    await screenshot(phone, "clerk-empty-state-phone");
  });

  test("page titles: distinct per section, each step of sign-in its own, and a kept deep link named", async () => {
    await alice.goto(url("/client/home"));
    assert.equal(await alice.title(), "Home · Client · Payments Portal");
    await alice.goto(url("/client/inbox"));
    assert.equal(await alice.title(), "Inbox · Client · Payments Portal");
    const vera = await suite.signedInPage(accounts.vera);
    assert.equal(await vera.title(), "Home · Vendor · Payments Portal");

    const visitor = await suite.newPage({ ...PHONE });
    await visitor.goto(url("/client/reports/aging"));
    await visitor.waitForURL(/\/\?return=/);
    await hydrated(visitor);
    assert.equal(await visitor.title(), "Sign in to continue to Aging Report · Payments Portal");
    assert.ok(await visitor.getByText("Sign in to continue to Aging Report").isVisible());
    await visitor.getByRole("link", { name: "Reset Password" }).click();
    await visitor.getByRole("heading", { name: "Password Reset" }).waitFor();
    assert.equal(await visitor.title(), "Password Reset · Payments Portal");
    await visitor.getByRole("button", { name: "Return To Login" }).click();
    await submitLogin(visitor, { site: "client", shortName: "ACME", userName: "alice", password: DEMO_PASSWORD });
    await visitor.getByRole("heading", { name: "Verify This Device" }).waitFor();
    assert.equal(await visitor.title(), "Verify This Device · Payments Portal");
    await visitor.reload();
    await visitor.getByRole("heading", { name: "Verify This Device" }).waitFor();
    assert.equal(await visitor.title(), "Verify This Device · Payments Portal", "the server's title too");
  });

  test("the header's name and company link to the person's security page, headed by what it holds, each part under its own heading, on a desktop and a phone", async () => {
    for (const page of [alice, await suite.newPage({ ...PHONE, storageState: await alice.context().storageState() })]) {
      await page.goto(url("/client/inbox"));
      const account = page.getByRole("link", { name: /Signed in as alice at ACME/ });
      assert.ok(await account.isVisible());
      await account.click();
      await page.waitForURL(url("/client/users/change-password"));
      const main = page.getByRole("main");
      await main.getByRole("heading", { level: 1, name: "Security", exact: true }).waitFor();
      assert.equal(await main.getByRole("heading", { level: 1 }).count(), 1, "one h1");
      // The form is one part of the page, found by its own heading, as the lists are by theirs (each a region).
      await main
        .getByRole("article", { name: "Change Password" })
        .getByRole("button", { name: "Change Password" })
        .waitFor();
      assert.ok(await main.getByRole("heading", { level: 2, name: "Change Password" }).isVisible());
      for (const part of ["Where you're signed in", "Browsers that skip the code", "Recent security activity"])
        assert.ok(
          await main.getByRole("region", { name: part }).getByRole("heading", { level: 2, name: part }).isVisible(),
          part,
        );
      // The lists are a tap away from the top of the page, not below the form's fold.
      const parts = main.getByRole("navigation", { name: "On this page" });
      assert.ok(await parts.isVisible(), "the page's parts are linked at its top");
      const partsTop = (await parts.boundingBox())?.y;
      const formTop = (await main.getByRole("article", { name: "Change Password" }).boundingBox())?.y;
      assert.ok(partsTop !== undefined && formTop !== undefined && partsTop < formTop, "above the form");
      await parts.getByRole("link", { name: "Where you're signed in" }).click();
      await page.waitForURL(url("/client/users/change-password#sessions"));
      assert.ok(await main.getByRole("heading", { level: 2, name: "Where you're signed in" }).isVisible());
      const heading = await main.getByRole("heading", { level: 2, name: "Where you're signed in" }).boundingBox();
      assert.ok(heading && heading.y >= 0 && heading.y < (page.viewportSize()?.height ?? 0), "scrolled into view");
      // Every card of the page is as wide as the others.
      const widths = await main
        .locator(".account-section, .account-form")
        .evaluateAll((cards) => cards.map((card) => Math.round(card.getBoundingClientRect().width)));
      assert.equal(new Set(widths).size, 1, `one width for every card: ${widths.join(", ")}`);
    }
  });
});

describe("a printed page", () => {
  const suite = browserSuite({}, { viewport: DESKTOP, colorScheme: "dark" });

  test("bug 9: prints without the menu and Sign out, in dark ink on white even from dark mode", async () => {
    const alice = await suite.signedInPage(accounts.alice);
    await alice.goto(`${suite.portal.url}/client/support`);
    await alice.emulateMedia({ media: "print", colorScheme: "dark" });
    assert.ok(!(await alice.getByRole("button", { name: "Sign out" }).isVisible()), "no Sign out on paper");
    assert.ok(!(await alice.getByRole("navigation", { name: "Client pages" }).isVisible()), "no menu on paper");
    assert.ok(await alice.getByRole("heading", { level: 1, name: "Support" }).isVisible(), "the content prints");
    const colours = await alice.evaluate(() => {
      const link = document.querySelector("main a.contact") as HTMLElement;
      const heading = document.querySelector("main h1") as HTMLElement;
      return [
        getComputedStyle(link).color,
        getComputedStyle(heading).color,
        getComputedStyle(document.body).backgroundColor,
      ];
    });
    /** Relative luminance, 0 (black) to 1 (white), of an rgb() colour. */
    const luminance = (rgb: string) => {
      const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((c) => {
        const v = Number(c) / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
    };
    const [link, heading, background] = colours.map(luminance);
    assert.ok((background ?? 0) > 0.9, `a white page, not ${colours[2]}`);
    for (const [name, value] of [
      ["link", link],
      ["heading", heading],
    ] as const)
      assert.ok(1.05 / ((value ?? 1) + 0.05) >= 7, `the ${name} reads on white (${colours.join(" ")})`);
    await alice.screenshot({ path: "artifacts/screenshots/clerk-print.png", fullPage: true });
    await alice.pdf({ path: "artifacts/screenshots/clerk-print.pdf" });
  });

  test("a document page prints the document's details and its address, not the PDF viewer's blank frame", async () => {
    const alice = await suite.signedInPage(accounts.alice);
    await alice.goto(`${suite.portal.url}/client/docs/bank-holidays`);
    await alice.emulateMedia({ media: "print", colorScheme: "dark" });
    assert.ok(!(await alice.locator("iframe.pdf-frame").isVisible()), "no frame on paper");
    assert.ok(!(await alice.getByRole("link", { name: "Open the PDF" }).isVisible()), "no buttons on paper");
    const main = alice.getByRole("main");
    assert.ok(await main.getByRole("heading", { level: 1, name: "Bank Holidays" }).isVisible());
    for (const words of ["BankHolidays.pdf", "/pdfs/BankHolidays.pdf", "open the PDF and print it from there"])
      assert.ok(await main.getByText(words).filter({ visible: true }).count(), `"${words}" on paper`);
    await alice.emulateMedia({ media: "screen" });
    assert.ok(!(await main.getByText("/pdfs/BankHolidays.pdf").isVisible()), "the details are for paper only");
    await alice.emulateMedia({ media: "print", colorScheme: "dark" });
    await alice.pdf({ path: "artifacts/screenshots/clerk-print-document.pdf" });
  });

  test("the account page prints whose it is and its lists of sessions and activity, not its empty forms", async () => {
    const alice = await suite.signedInPage(accounts.alice);
    await alice.goto(`${suite.portal.url}/client/users/change-password`);
    await alice.emulateMedia({ media: "print", colorScheme: "dark" });
    const main = alice.getByRole("main");
    assert.ok(await main.getByRole("heading", { level: 1, name: "Security" }).isVisible(), "its heading on paper");
    for (const heading of ["Where you're signed in", "Recent security activity"])
      assert.ok(await main.getByRole("heading", { level: 2, name: heading }).isVisible(), `${heading} on paper`);
    assert.ok(await main.locator(".sessions > li").first().isVisible(), "the sessions");
    assert.ok(await main.locator(".activity > li").first().isVisible(), "the activity");
    assert.ok(await alice.getByRole("banner").getByText("alice").isVisible(), "whose page it is");
    const fields = await main
      .locator("input, button, summary")
      .evaluateAll((controls) => controls.filter((control) => control.checkVisibility()).length);
    assert.equal(fields, 0, "no field, box or button on paper");
    await alice.pdf({ path: "artifacts/screenshots/clerk-print-account.pdf" });
  });
});

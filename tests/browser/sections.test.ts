// The section layouts as a person uses them: moving through the client and vendor sections by their navigation,
// the forbidden and not-found pages, a PDF page, the narrow-screen menu, and the tax-bridge landing.
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { accounts } from "#harness/sign-in.ts";
import { DEMO_PASSWORD, screenshot } from "#tests/browser/harness.ts";
import { browserSuite, enterCode, lastMailId, openLogin, submitLogin } from "#tests/browser/steps.ts";
import { homeTexts } from "#web/texts/home.ts";
import { sectionTexts } from "#web/texts/sections.ts";

const SUPPORT_EMAIL = "help-desk@portal.test";
const WIDE = { width: 1280, height: 900 };
const NARROW = { width: 390, height: 844 };

describe("the section layouts", () => {
  const suite = browserSuite({ env: { SUPPORT_EMAIL } }, { viewport: WIDE });
  const { newPage } = suite;
  let client: Page;
  const url = (path: string) => `${suite.portal.url}${path}`;

  before(async () => {
    client = await suite.signedInPage(accounts.alice);
  });

  test("a client moves through the client section by its sidebar, the current page marked and titled", async () => {
    const nav = client.getByRole("navigation", { name: "Client pages" });
    assert.ok(await nav.getByRole("link", { name: "Inbox" }).isVisible(), "the sidebar shows without a Menu click");
    assert.ok(!(await client.getByText("Menu", { exact: true }).isVisible()), "no Menu toggle on a wide screen");
    assert.equal(await nav.getByRole("link", { name: "Home" }).getAttribute("aria-current"), "page");

    await nav.getByText("Invoices", { exact: true }).click();
    await nav.getByRole("link", { name: "Invoice Status" }).click();
    await client.waitForURL(url("/client/invoices/status"));
    assert.equal(await client.title(), "Invoice Status · Client · Payments Portal");
    await client.getByRole("heading", { level: 1, name: "Invoice Status" }).waitFor();
    assert.ok(await client.getByText("Where each invoice stands.").isVisible());
    const current = client.getByRole("navigation", { name: "Client pages" }).locator('[aria-current="page"]');
    assert.deepEqual(await current.allInnerTexts(), ["Invoice Status"]);

    await client.getByRole("navigation", { name: "Client pages" }).getByText("VIP", { exact: true }).click();
    await client.getByRole("link", { name: "VIP Dashboard" }).click();
    await client.waitForURL(url("/client/vip/dashboard"));
    await client.getByRole("heading", { level: 1, name: "VIP Dashboard" }).waitFor();
    await screenshot(client, "client-section");
  });

  test("a document page shows its PDF in a frame served from /pdfs/, with a download link", async () => {
    const nav = client.getByRole("navigation", { name: "Client pages" });
    await nav.getByText("Documents", { exact: true }).click();
    await nav.getByRole("link", { name: "Bank Holidays" }).click();
    await client.waitForURL(url("/client/docs/bank-holidays"));
    const frame = client.locator("iframe.pdf-frame");
    const src = await frame.getAttribute("src");
    assert.equal(src, "/pdfs/BankHolidays.pdf");
    const pdf = await client.request.get(url(src));
    assert.equal(pdf.status(), 200);
    assert.match(pdf.headers()["content-type"] ?? "", /^application\/pdf/);
    assert.equal((await pdf.body()).subarray(0, 4).toString("latin1"), "%PDF");
    const download = client.getByRole("link", { name: "Download BankHolidays.pdf" });
    assert.equal(await download.getAttribute("href"), "/pdfs/BankHolidays.pdf");
    assert.equal(await download.getAttribute("download"), "BankHolidays.pdf");
  });

  test("on a narrow screen the navigation folds behind Menu and opens on a tap", async () => {
    const narrow = await newPage({ viewport: NARROW, storageState: await client.context().storageState() });
    await narrow.goto(url("/client/reports/aging"));
    await narrow.getByRole("heading", { level: 1, name: "Aging Report" }).waitFor();
    const inbox = narrow.getByRole("link", { name: "Inbox" });
    assert.ok(!(await inbox.isVisible()), "the menu starts folded, the screen first");
    await narrow.getByText("Menu", { exact: true }).click();
    await narrow.locator(".section-nav summary", { hasText: /^Home$/ }).click();
    await inbox.waitFor();
    assert.ok(await narrow.getByRole("link", { name: "Aging Report" }).isVisible(), "the current group is open");
    await screenshot(narrow, "client-section-narrow");
  });

  test("a phone's home is short: the cards say what each area holds and point to the Menu, which holds the pages", async () => {
    const home = url("/client/home");
    const wide = await newPage({ storageState: await client.context().storageState() });
    await wide.goto(home);
    const wideHeight = await wide.evaluate(() => document.documentElement.scrollHeight);
    const phone = await newPage({ viewport: NARROW, storageState: await client.context().storageState() });
    await phone.goto(home);
    await phone.getByText(homeTexts.menuHint(sectionTexts.menu)).waitFor();
    assert.ok(!(await wide.getByText(homeTexts.menuHint(sectionTexts.menu)).isVisible()), "the hint is the phone's");
    assert.equal(await phone.locator(".area-links a:visible").count(), 0, "the menu holds the page links");
    assert.ok((await wide.locator(".area-links a:visible").count()) > 0, "a desktop's cards keep theirs");
    const phoneHeight = await phone.evaluate(() => document.documentElement.scrollHeight);
    const screens = phoneHeight / NARROW.height;
    assert.ok(screens < 3.5, `the phone's home is ${screens.toFixed(1)} screens long (desktop: ${wideHeight} px)`);
    await screenshot(phone, "client-home-phone");
  });

  test("a vendor without user tier meets the forbidden and not-found pages, and moves by the vendor menu", async () => {
    const page = await suite.signedInPage(accounts.vince);
    const nav = page.getByRole("navigation", { name: "Vendor pages" });
    assert.equal(await nav.getByRole("link", { name: "Invoice Entry" }).count(), 0, "not listed without user tier");

    const forbidden = await page.goto(url("/vendor/invoice/entry"));
    assert.equal(forbidden?.status(), 403);
    await page.getByRole("heading", { name: "You Do Not Have Access To That Page" }).waitFor();
    assert.ok(await page.getByText("Please contact your acccount administrator.").isVisible());
    assert.ok(
      await page.getByText(`If you believe this to be an error, please contact us at ${SUPPORT_EMAIL}`).isVisible(),
    );

    const notFound = await page.goto(url("/vendor/no-such-page"));
    assert.equal(notFound?.status(), 404);
    await page.getByRole("heading", { name: "The Page You Requested Could Not Be Found" }).waitFor();
    assert.ok(await page.getByText("Please check the URL and try again.").isVisible());

    await page.getByRole("navigation", { name: "Vendor pages" }).getByText("Reports", { exact: true }).click();
    await page.getByRole("link", { name: "Payments Received", exact: true }).click();
    await page.waitForURL(url("/vendor/reports/payments-received"));
    await page.getByRole("heading", { level: 1, name: "Payments Received" }).waitFor();
    await screenshot(page, "vendor-section");
  });

  test("a home promises only what its person may do: a view-only client and a vendor of tier 0 are told what they can open", async () => {
    const promised = async (page: Page) => {
      const home = page.locator("article.home");
      return {
        doings: (await home.locator(".home-intro > p").last().textContent()) ?? "",
        cards: (await home.locator(".area-card > p").allTextContents()).join(" "),
      };
    };
    const victor = await promised(await suite.signedInPage(accounts.victor));
    assert.equal(
      victor.doings,
      "Follow your invoices, run reports and look up your vendors' history, terms and W-8 forms.",
    );
    for (const never of [
      /upload/i,
      /\bpay\b|payment|to pay/i,
      /entry|import/i,
      /cart|pending invoices/i,
      /administration/i,
    ])
      assert.doesNotMatch(`${victor.doings} ${victor.cards}`, never, "victor is view-only, with service 1894");
    const vince = await promised(await suite.signedInPage(accounts.vince));
    assert.equal(vince.doings, "Follow your invoices' status and see payments received.");
    assert.doesNotMatch(`${vince.doings} ${vince.cards}`, /submit|invoice entry|administration/i, "vince is of tier 0");
    const alice = await promised(await suite.signedInPage(accounts.alice));
    assert.match(alice.doings, /^Upload batches, enter and import invoices, choose invoices to pay/);
  });

  test("signing in at /tax-bridge/login lands a vendor on invoices due and a client on the submission report", async () => {
    const cases = [
      { login: { site: "vendor", userName: "vera", password: DEMO_PASSWORD }, email: "vera@vendor.example" },
      {
        login: { site: "client", shortName: "ACME", userName: "alice", password: DEMO_PASSWORD },
        email: "alice@acme.example",
      },
    ] as const;
    const landings = {
      vendor: ["/vendor/invoice/due", "Invoices Due"],
      client: ["/client/submission/report", "Submission Report"],
    } as const;
    for (const { login, email } of cases) {
      const page = await newPage();
      const before = await lastMailId(suite.portal.sandboxUrl, email);
      await openLogin(page, suite.portal.url, "/tax-bridge/login");
      await page
        .getByText("Tax-bridge sign-in: clients go on to Submission Report, vendors to Invoices Due.")
        .waitFor();
      await submitLogin(page, login);
      await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
      await enterCode(page, suite.portal.sandboxUrl, email, before);
      const [path, title] = landings[login.site];
      await page.waitForURL(url(path));
      await page.getByRole("heading", { level: 1, name: title }).waitFor();
    }
  });
});

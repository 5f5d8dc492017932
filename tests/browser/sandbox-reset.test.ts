// The sandbox's password-reset page as a person meets it from the mail (sandbox/reset-page.ts), through the portal
// and on the sandbox alone: the portal's brand, the change-password form's checklist ticking as the password is typed,
// and "Show passwords"; its one script runs under the page's policy, which names it by its hash.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { PortalClient } from "#harness/portal-client.ts";
import { latestMail, screenshot } from "#tests/browser/harness.ts";
import { browserSuite } from "#tests/browser/steps.ts";
import { resetLinkPath } from "#tests/support/reset-link.ts";
import { brand } from "#web/texts/document-title.ts";
import { passwordTexts } from "#web/texts/password.ts";

const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };

describe("the sandbox's password-reset page", () => {
  const suite = browserSuite();

  /** A fresh reset link for vera, as its path and query. */
  async function resetLink(): Promise<string> {
    const asked = await new PortalClient(suite.portal.url).post("/api/web/reset-pwd", {
      clientShortName: "",
      emailAddress: "vera@vendor.example",
    });
    assert.equal(asked.status, 200, asked.text);
    return resetLinkPath((await latestMail(suite.portal.sandboxUrl, "vera@vendor.example")).body);
  }

  /** The checklist's item for a rule, and whether it reads as met. */
  const item = (page: Page, label: string) =>
    page
      .getByRole("list", { name: passwordTexts.requirementsHeading })
      .getByRole("listitem")
      .filter({ hasText: label });
  async function assertMet(page: Page, label: string, met: boolean): Promise<void> {
    const words = met ? passwordTexts.met : passwordTexts.notMet;
    await item(page, label).filter({ hasText: words }).waitFor();
    assert.equal(await item(page, label).getAttribute("class"), met ? "met" : "unmet", label);
  }

  test("wears the portal's brand, ticks the checklist as the password is typed and shows the passwords, through the portal and alone", async () => {
    const path = await resetLink();
    for (const [where, origin] of [
      ["through the portal", suite.portal.url],
      ["on the sandbox alone", suite.portal.sandboxUrl],
    ] as const) {
      const page = await suite.newPage(PHONE);
      const answer = await page.goto(`${origin}${path}`);
      assert.match(String(answer?.headers()["content-security-policy"]), /script-src 'sha256-[\w+/=]+'(;|$)/, where);
      await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
      assert.ok(await page.getByRole("banner").getByRole("link", { name: brand }).isVisible(), `${where}: the brand`);

      const next = page.getByLabel(passwordTexts.newPassword, { exact: true });
      await next.fill("weak");
      await assertMet(page, passwordTexts.requirements.length, false);
      await assertMet(page, passwordTexts.requirements.lower, true);
      await assertMet(page, passwordTexts.requirements.special, false);
      await next.fill("Fresh-Start-2026!");
      for (const label of Object.values(passwordTexts.requirements)) await assertMet(page, label, true);

      const show = page.getByLabel(passwordTexts.show);
      const confirm = page.getByLabel(passwordTexts.confirmPassword, { exact: true });
      assert.equal(await next.getAttribute("type"), "password");
      await show.check();
      assert.equal(await next.getAttribute("type"), "text", `${where}: shown`);
      assert.equal(await confirm.getAttribute("type"), "text");
      await show.uncheck();
      assert.equal(await next.getAttribute("type"), "password", `${where}: hidden again`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= PHONE.viewport.width, `${where}: ${width} px wide on a phone`);
      await screenshot(page, `sandbox-reset-${where === "on the sandbox alone" ? "alone" : "relayed"}`);
    }
  });

  test("a refused try comes back by a GET, its reason shown and the checklist working again", async () => {
    const page = await suite.newPage();
    await page.goto(`${suite.portal.url}${await resetLink()}`);
    await page.getByLabel(passwordTexts.newPassword, { exact: true }).fill("Fresh-Start-2026!");
    await page.getByLabel(passwordTexts.confirmPassword, { exact: true }).fill("Fresh-Other-2026!");
    await page.getByRole("button", { name: "Set New Password" }).click();
    await page.getByRole("alert").filter({ hasText: passwordTexts.mismatch }).waitFor();
    // Post/redirect/get: the refusal is the link's own page by a GET, the reason a code in its address, so a reload
    // asks nothing again and posts nothing.
    const address = new URL(page.url());
    assert.equal(address.pathname, "/sandbox/reset");
    assert.equal(address.searchParams.get("error"), "mismatch");
    assert.ok(!page.url().includes("Fresh-"), "no password in the address");
    const reloaded = await page.reload();
    assert.equal(reloaded?.request().method(), "GET");
    await page.getByRole("alert").filter({ hasText: passwordTexts.mismatch }).waitFor();
    await assertMet(page, passwordTexts.requirements.digit, false);
    await page.getByLabel(passwordTexts.newPassword, { exact: true }).fill("2026");
    await assertMet(page, passwordTexts.requirements.digit, true);
  });
});

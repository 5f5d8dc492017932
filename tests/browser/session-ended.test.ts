// Every open tab tells the truth within seconds: a session ended from another device, by a password change there, by
// a reset, or replaced by a link sign-in in another tab, is said to have ended, and how, in each tab of the browser
// where it was open, where the tab is: a tab on a form keeps what was typed and sends nothing more, and leads on to sign
// in again. A document page whose session ended says so in the portal's words, never raw JSON. Time passes on clocks
// the tests move (the portal's and the pages'), never by waiting.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { PortalClient } from "#harness/portal-client.ts";
import { type Account, accounts, DEMO_PASSWORD, latestMail, signIn } from "#harness/sign-in.ts";
import { END_SESSIONS_PATH } from "#server/loaders/account-view.ts";
import { clockedBrowserSuite } from "#tests/browser/clocked-suite.ts";
import { sandboxPost, screenshot } from "#tests/browser/harness.ts";
import { hydrated } from "#tests/browser/steps.ts";
import { resetForm, resetLinkPath } from "#tests/support/reset-link.ts";
import { END_OTHERS_HEADER } from "#web/api/end-others.ts";
import { STATUS_CHECK_SECONDS } from "#web/idle-timing.ts";
import { signInUrl } from "#web/site.ts";
import { layoutTexts } from "#web/texts/layout.ts";
import { linkLoginTexts } from "#web/texts/link-login.ts";
import { loginNotices } from "#web/texts/login-notices.ts";
import { loginTexts } from "#web/texts/login-screen.ts";
import { mfaTexts } from "#web/texts/mfa.ts";
import { passwordTexts } from "#web/texts/password.ts";
import { sectionTexts } from "#web/texts/sections.ts";

describe("every open tab says why its session ended", () => {
  const suite = clockedBrowserSuite();

  /** Two tabs of one browser signed in as `account`: its home page, and its change-password form half filled in. */
  async function twoTabs(account: Account) {
    const home = await suite.signedInPage(account);
    const form = await home.context().newPage();
    await form.goto(`${suite.portal.url}/${account.site}/users/change-password`);
    await hydrated(form);
    const fields = form.locator("form:has(#change-password-current)");
    const typed = { current: "typed-before-the-end", next: "Typed-New-2026!" };
    await fields.getByLabel(passwordTexts.currentPassword, { exact: true }).fill(typed.current);
    await fields.getByLabel(passwordTexts.newPassword, { exact: true }).fill(typed.next);
    return { home, form, fields, typed };
  }

  /** Another device of the same person, signed in over HTTP. */
  const otherDevice = (account: Account) => signIn(suite.portal.url, account, suite.portal.code);

  /** The notice in a tab's warning place, once the session is over. */
  const notice = (tab: Page, words: string) => tab.getByRole("alert").filter({ hasText: words });

  /** Lets the tabs' next check come (they ask every few seconds while in view): each tab then says `words`. */
  async function toldWithinSeconds(tabs: Page[], words: string): Promise<void> {
    await suite.pass(tabs[0] as Page, STATUS_CHECK_SECONDS * 1000);
    for (const tab of tabs) await notice(tab, words).waitFor({ timeout: 2_000 });
  }

  /**
   * What a tab on a form shows once its session ended: the page and everything typed stay, nothing is sent, and the
   * notice leads on by `leadsOn`, back to this page once signed in.
   */
  async function keptAndHeld(
    tabs: Awaited<ReturnType<typeof twoTabs>>,
    words: string,
    leadsOn: string = mfaTexts.signInAgain,
  ): Promise<void> {
    const { form, fields, typed } = tabs;
    assert.match(form.url(), /\/users\/change-password$/, "the tab stayed on its form");
    assert.equal(await fields.getByLabel(passwordTexts.currentPassword, { exact: true }).inputValue(), typed.current);
    assert.equal(await fields.getByLabel(passwordTexts.newPassword, { exact: true }).inputValue(), typed.next);
    assert.equal(await form.locator(".site-header-account").isVisible(), false, "no one is named as signed in");
    let sent = 0;
    form.on("request", (request) => {
      if (request.method() === "POST") sent += 1;
    });
    await fields.getByLabel(passwordTexts.newPassword, { exact: true }).press("Enter");
    await suite.pass(form, 1_000);
    assert.equal(sent, 0, "a form of an ended session sends nothing");
    const link = notice(form, words).getByRole("link", { name: leadsOn });
    assert.equal(await link.getAttribute("href"), signInUrl(new URL(form.url()).pathname), "and back here");
  }

  test("'Sign out of all other devices' elsewhere: both tabs say 'You were signed out from another device', the form keeps what was typed", async () => {
    const tabs = await twoTabs(accounts.gary);
    const elsewhere = await otherDevice(accounts.gary);
    const form = new URLSearchParams({
      session: "all",
      password: DEMO_PASSWORD,
      return: "/client/users/change-password",
    });
    const ended = await new PortalClient(suite.portal.url, { islandsHeader: false }).post(END_SESSIONS_PATH, form, {
      cookie: elsewhere.cookieHeader,
    });
    assert.equal(ended.status, 303);
    await toldWithinSeconds([tabs.home, tabs.form], loginNotices.endedElsewhere);
    await screenshot(tabs.form, "session-ended-elsewhere");
    await keptAndHeld(tabs, loginNotices.endedElsewhere);
  });

  test("a password change on another device: both tabs say the password was changed", async () => {
    const tabs = await twoTabs(accounts.vera);
    const elsewhere = await otherDevice(accounts.vera);
    const tested = await elsewhere.post("/api/web/vendor/password/test", { userId: "vera", password: DEMO_PASSWORD });
    assert.equal(tested.status, 200, tested.text);
    const changed = await elsewhere.request(
      "POST",
      "/api/web/vendor/password/change",
      { password: "Tabs-Changed-2026!" },
      { [END_OTHERS_HEADER]: "1" },
    );
    assert.equal(changed.status, 200, changed.text);
    await toldWithinSeconds([tabs.home, tabs.form], loginNotices.passwordChanged);
    await keptAndHeld(tabs, loginNotices.passwordChanged);
  });

  test("a reset by the mailed link: both tabs say the password was reset", async () => {
    const tabs = await twoTabs(accounts.alice);
    const asked = await new PortalClient(suite.portal.url).post("/api/web/reset-pwd", {
      clientShortName: "ACME",
      emailAddress: "alice@acme.example",
    });
    assert.equal(asked.status, 200, asked.text);
    const link = resetLinkPath((await latestMail(suite.portal.sandboxUrl, "alice@acme.example")).body);
    const form = new PortalClient(suite.portal.url, { islandsHeader: false });
    const reset = await form.post("/sandbox/reset", resetForm(link, "Tabs-Reset-2026!"));
    assert.equal(reset.status, 303, reset.text);
    await toldWithinSeconds([tabs.home, tabs.form], loginNotices.passwordReset);
    await keptAndHeld(tabs, loginNotices.passwordReset);
  });

  test("'Continue with this link' in a third tab: the others say a sign-in there replaced their session, and act for no one", async () => {
    const tabs = await twoTabs(accounts.victor);
    const { uuid } = await sandboxPost(suite.portal.sandboxUrl, "/sandbox/link-login", {
      site: "vendor",
      username: "vince",
    });
    const third = await tabs.home.context().newPage();
    await third.goto(`${suite.portal.url}/login?uuid=${String(uuid)}&type=Vendor`);
    await hydrated(third);
    await third.getByRole("button", { name: linkLoginTexts.continueWithLink }).click();
    await third.waitForURL(`${suite.portal.url}/vendor/home`);
    await toldWithinSeconds([tabs.home, tabs.form], layoutTexts.sessionReplaced);
    await screenshot(tabs.home, "session-replaced");
    await keptAndHeld(tabs, layoutTexts.sessionReplaced, layoutTexts.continueWithNewSignIn);
  });

  test("a document page whose session ended says so in place, and 'Open the PDF' shows the portal's words with the way back", async () => {
    const page = await suite.signedInPage(accounts.vince);
    await page.goto(`${suite.portal.url}/vendor/docs/bank-holidays`);
    const elsewhere = await otherDevice(accounts.vince);
    const form = new URLSearchParams({
      session: "all",
      password: DEMO_PASSWORD,
      return: "/vendor/users/change-password",
    });
    await new PortalClient(suite.portal.url, { islandsHeader: false }).post(END_SESSIONS_PATH, form, {
      cookie: elsewhere.cookieHeader,
    });
    await toldWithinSeconds([page], loginNotices.endedElsewhere);
    await page.getByRole("link", { name: sectionTexts.openPdf }).click();
    await page.waitForURL(`${suite.portal.url}/pdfs/BankHolidays.pdf`);
    await page.getByText(loginNotices.endedElsewhere).waitFor();
    assert.doesNotMatch((await page.textContent("body")) ?? "", /[{}]/, "no raw JSON");
    await page.getByRole("link", { name: mfaTexts.signInAgain }).click();
    await page.getByRole("heading", { name: loginTexts.heading }).waitFor();
    await page.getByText(loginNotices.endedElsewhere).waitFor(); // the sign-in page says it too
  });
});

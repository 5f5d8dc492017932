// A link from another site (a mail, a chat) opens the portal's page for a person signed in, while what that site's
// page posts is refused and writes nothing (issue 31, item 2). The other site is a page served on `localhost`, the
// portal on 127.0.0.1: two sites to the browser.
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { accounts, DEMO_PASSWORD } from "#harness/sign-in.ts";
import { sandboxPost } from "#tests/browser/harness.ts";
import { browserSuite, enterCode, hydrated, lastMailId, submitLogin } from "#tests/browser/steps.ts";
import { accessTexts } from "#web/texts/access.ts";
import { errorTexts } from "#web/texts/errors.ts";
import { linkLoginTexts } from "#web/texts/link-login.ts";
import { loginNotices } from "#web/texts/login-notices.ts";

describe("a link from another site", () => {
  let site: Server | undefined;
  let siteUrl = "";
  // Closed before the suite's own check (registered next): a hook that fails skips the hooks after it, and this
  // server, left open, would keep the file's process from ever ending.
  after(() => {
    site?.closeAllConnections();
    site?.close();
  });
  const suite = browserSuite();
  before(async () => {
    // The other site's page: links to the portal, and a form posting to its sign-out.
    site = createServer((request, response) => {
      const portal = suite.portal.url;
      // `/go?to=` sends the browser on by script, with no click; `/click?to=` is a link the person clicks.
      const { pathname, searchParams } = new URL(request.url ?? "/", "http://localhost");
      const to = JSON.stringify(`${portal}${searchParams.get("to") ?? "/"}`);
      if (pathname === "/go")
        return void response
          .writeHead(200, { "content-type": "text/html; charset=utf-8" })
          .end(`<!DOCTYPE html><title>Elsewhere</title><script>location.href = ${to};</script>`);
      if (pathname === "/click")
        return void response
          .writeHead(200, { "content-type": "text/html; charset=utf-8" })
          .end(`<!DOCTYPE html><title>Elsewhere</title><a href=${to}>Open your link</a>`);
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(`<!DOCTYPE html>
<title>Elsewhere</title>
<a href="${portal}/client/activity">Your activity</a>
<a href="${portal}/tax-bridge/login">Sign in for the tax bridge</a>
<a href="${portal}/mfa" target="_blank">Verify your device</a>
<form method="post" action="${portal}/session/logout"><button>Sign you out</button></form>`);
    });
    site.listen(0, "127.0.0.1");
    await once(site, "listening");
    siteUrl = `http://localhost:${(site.address() as AddressInfo).port}/`;
  });

  /** The session cookie's value as the browser keeps it. */
  const sessionCookie = async (page: Page) =>
    (await page.context().cookies()).find((cookie) => cookie.name === "__Host-portal-session")?.value;

  test("opens the page for a person signed in, writes nothing of the session, and the site's form cannot sign them out", async () => {
    const page = await suite.signedInPage(accounts.alice);
    const held = await sessionCookie(page);
    await page.goto(siteUrl);
    const [opened] = await Promise.all([
      page.waitForResponse(`${suite.portal.url}/client/activity`),
      page.getByRole("link", { name: "Your activity" }).click(),
    ]);
    assert.equal(opened.status(), 200, "the page, not the sign-in page");
    assert.equal(await opened.request().headerValue("sec-fetch-site"), "cross-site");
    await page.waitForURL(`${suite.portal.url}/client/activity`);
    await page.getByRole("heading", { level: 1, name: "Activity" }).waitFor();
    await page.getByText("alice").first().waitFor();
    const written = (await opened.headerValues("set-cookie")).map((line) => line.split("=", 1)[0]);
    assert.deepEqual(
      written.filter((name) => name === "__Host-portal-session" || name === "__Host-portal-same-site"),
      [],
      "the link's answer writes no cookie of the session (only its visit's previous page)",
    );

    await page.goto(siteUrl);
    const [refused] = await Promise.all([
      page.waitForResponse(`${suite.portal.url}/session/logout`),
      page.getByRole("button", { name: "Sign you out" }).click(),
    ]);
    assert.equal(refused.status(), 403, "another site's form is refused");
    // In the portal's words and frame, with its styles (the suite checks that no policy refused a thing), and a way back.
    await page.getByRole("heading", { level: 1, name: errorTexts.accessDenied }).waitFor();
    await page.getByText(accessTexts.crossSiteForm).waitFor();
    const back = page.getByRole("link", { name: linkLoginTexts.signIn });
    assert.equal(await back.getAttribute("href"), "/");
    assert.equal(await sessionCookie(page), held, "the session cookie is the one the browser held");
    await page.goto(`${suite.portal.url}/client/home`);
    await page.getByText("alice").first().waitFor(); // still signed in
  });

  test("to /mfa in a new tab, mid-sign-in: the step sends no code by itself, and the code already sent signs in", async () => {
    const page = await suite.newPage();
    await page.goto(suite.portal.url);
    await hydrated(page);
    const before = await lastMailId(suite.portal.sandboxUrl, accounts.alice.email);
    await submitLogin(page, { site: "client", shortName: "ACME", userName: "alice", password: DEMO_PASSWORD });
    await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
    const sent = await lastMailId(suite.portal.sandboxUrl, accounts.alice.email);
    assert.ok(sent > before, "the person's own sign-in sent a code");
    await page.goto(siteUrl);
    const generated: string[] = [];
    page.context().on("request", (request) => {
      if (request.url().includes("/mfa/generate")) generated.push(request.url());
    });
    const [tab] = await Promise.all([
      page.context().waitForEvent("page"),
      page.getByRole("link", { name: "Verify your device" }).click(),
    ]);
    await tab.getByRole("heading", { name: "Verify This Device" }).waitFor();
    await hydrated(tab);
    await tab.waitForLoadState("networkidle");
    assert.deepEqual(generated, [], "no code asked for");
    assert.equal(await lastMailId(suite.portal.sandboxUrl, accounts.alice.email), sent, "no code mailed");
    await enterCode(tab, suite.portal.sandboxUrl, accounts.alice.email, before);
    await tab.waitForURL(`${suite.portal.url}/client/home`);
  });

  test("a sign-in link another site's page opens by itself waits for the person's click; one she clicks there signs in as it loads", async () => {
    const mintLink = async () =>
      String(
        (await sandboxPost(suite.portal.sandboxUrl, "/sandbox/link-login", { site: "client", username: "gary" })).uuid,
      );
    const page = await suite.newPage();
    const spent: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/auth/client-token")) spent.push(request.url());
    });
    const unasked = await mintLink();
    await page.goto(`${siteUrl}go?to=${encodeURIComponent(`/login?uuid=${unasked}&type=Client`)}`);
    await page.getByText(linkLoginTexts.openedByAnotherSite).waitFor();
    await hydrated(page);
    assert.deepEqual(spent, [], "nothing spent by the other site's redirect");
    await page.getByRole("button", { name: linkLoginTexts.continueWithoutScript }).click();
    await page.waitForURL(`${suite.portal.url}/client/home`);
    assert.equal(spent.length, 1, "spent by the person's click");

    const clicked = await mintLink();
    const other = await suite.newPage();
    await other.goto(`${siteUrl}click?to=${encodeURIComponent(`/login?uuid=${clicked}&type=Client`)}`);
    await other.getByRole("link", { name: "Open your link" }).click();
    await other.waitForURL(`${suite.portal.url}/client/home`); // requirements 2.6: spent as the page loads
  });

  test("to /tax-bridge/login, signed out: the page says the mode, and the sign-in made there is in it", async () => {
    const page = await suite.newPage();
    await page.goto(siteUrl);
    await page.getByRole("link", { name: "Sign in for the tax bridge" }).click();
    await page.waitForURL(`${suite.portal.url}/tax-bridge/login`);
    await page.getByText(loginNotices.taxBridge).waitFor();
    await hydrated(page);
    const before = await lastMailId(suite.portal.sandboxUrl, accounts.alice.email);
    await submitLogin(page, { site: "client", shortName: "ACME", userName: "alice", password: DEMO_PASSWORD });
    await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
    await enterCode(page, suite.portal.sandboxUrl, accounts.alice.email, before);
    await page.waitForURL(`${suite.portal.url}/client/submission/report`);
  });
});

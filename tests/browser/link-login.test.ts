// Login by link (requirements 2.6, 4.6): a link from the mail signs either audience in; a bad link says Invalid Login.
// Without script, the page's plain form continues by the same call, under the same rule for a session beside it.
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, test } from "node:test";
import { accounts, DEMO_PASSWORD } from "#harness/sign-in.ts";
import { latestMail, sandboxPost } from "#tests/browser/harness.ts";
import { browserSuite, hydrated, lastMailId, nextCode } from "#tests/browser/steps.ts";
import { linkLoginTexts } from "#web/texts/link-login.ts";

describe("login by link", () => {
  const suite = browserSuite();
  const { newPage } = suite;
  const mintLink = async (site: "client" | "vendor", username: string) => {
    const { uuid } = await sandboxPost(suite.portal.sandboxUrl, "/sandbox/link-login", { site, username });
    assert.equal(typeof uuid, "string");
    return String(uuid);
  };

  test("a client link signs in and lands on the client home", async () => {
    const page = await newPage();
    const uuid = await mintLink("client", "alice");
    await page.goto(`${suite.portal.url}/login?uuid=${uuid}&type=Client`);
    await page.waitForURL(`${suite.portal.url}/client/home`);
  });

  test("a vendor link (type=Vendor) signs in and lands on the vendor home", async () => {
    const page = await newPage();
    const uuid = await mintLink("vendor", "vera");
    await page.goto(`${suite.portal.url}/login?uuid=${uuid}&type=Vendor`);
    await page.waitForURL(`${suite.portal.url}/vendor/home`);
  });

  test("an unknown or spent uuid shows Invalid Login with a way back", async () => {
    const page = await newPage();
    await page.goto(`${suite.portal.url}/login?uuid=00000000-0000-4000-8000-000000000000&type=Vendor`);
    await page.getByText("Invalid Login").waitFor();
    assert.equal(await page.getByRole("link", { name: "Go to the sign-in page" }).getAttribute("href"), "/");

    const uuid = await mintLink("client", "victor");
    const spend = await newPage();
    await spend.goto(`${suite.portal.url}/login?uuid=${uuid}`);
    await spend.waitForURL(`${suite.portal.url}/client/home`);
    await page.goto(`${suite.portal.url}/login?uuid=${uuid}`);
    await page.getByText("Invalid Login").waitFor();
  });

  test("a spent link says how long a link works, as the mail that sent it does, and how to get a new one", async () => {
    const uuid = await mintLink("vendor", "vince");
    const mail = await latestMail(suite.portal.sandboxUrl, "vince@vendor.example");
    const lifetime = /expires in (\d+ hours?)/.exec(mail.body)?.[1];
    assert.ok(lifetime, `the mail names the link's lifetime: ${mail.body}`);
    const spend = await newPage();
    await spend.goto(`${suite.portal.url}/login?uuid=${uuid}&type=Vendor`);
    await spend.waitForURL(`${suite.portal.url}/vendor/home`);
    const page = await newPage();
    await page.goto(`${suite.portal.url}/login?uuid=${uuid}&type=Vendor`);
    await page.getByText("Invalid Login").waitFor();
    const main = page.getByRole("main");
    const text = (await main.textContent()) ?? "";
    assert.match(text, new RegExp(`works once, within ${lifetime} of being sent`), "the mail's lifetime");
    assert.match(text, /For a new link, contact us by phone or email \(below\)/, "how to get a new one");
    assert.doesNotMatch(text, /a short time|login page/i);
    const { phone, email } = suite.portal.config.support;
    assert.match((await main.getByRole("link", { name: phone }).getAttribute("href")) ?? "", /^tel:/, "whom to ask");
    assert.equal(await main.getByRole("link", { name: email }).getAttribute("href"), `mailto:${email}`);
    assert.equal(await main.getByRole("link", { name: linkLoginTexts.signIn }).getAttribute("href"), "/");
  });

  test("B2: a link opened while signed in names the current session and is spent only on a click, which ends that session", async () => {
    const page = await suite.ownSessionPage(accounts.alice);
    let spent = 0;
    page.on("request", (request) => {
      if (request.url().includes("/api/auth/vendor-token")) spent++;
    });
    const uuid = await mintLink("vendor", "vera");
    // What an attacker's page does: a top-level navigation to the attacker's own link.
    await page.goto(`${suite.portal.url}/login?uuid=${uuid}&type=Vendor`);
    await hydrated(page);
    await page.getByRole("heading", { level: 1, name: linkLoginTexts.replaceHeading }).waitFor();
    await page.getByText(linkLoginTexts.signedInAs("alice, ACME")).waitFor();
    assert.equal(spent, 0, "nothing was spent before the click");
    assert.equal(
      await page.getByRole("link", { name: linkLoginTexts.stay }).getAttribute("href"),
      "/",
      "staying is one click too",
    );
    await page.getByRole("button", { name: linkLoginTexts.continueWithLink }).click();
    await page.waitForURL(`${suite.portal.url}/vendor/home`);
    assert.equal(spent, 1);
    await page.getByText("vera").first().waitFor();
  });

  test("B2: a link reached from another site, whose navigation only reads the session, still waits for a click", async () => {
    const page = await suite.ownSessionPage(accounts.alice);
    const uuid = await mintLink("vendor", "vera");
    // The attacker's page, on another site (localhost is not 127.0.0.1), sends the browser to its own link.
    const attacker = createServer((_request, response) => {
      response.writeHead(302, { location: `${suite.portal.url}/login?uuid=${uuid}&type=Vendor` }).end();
    });
    attacker.listen(0, "127.0.0.1");
    await once(attacker, "listening");
    try {
      const { port } = attacker.address() as AddressInfo;
      await page.goto(`http://localhost:${port}/`);
      await page.getByRole("heading", { level: 1, name: linkLoginTexts.replaceHeading }).waitFor();
      await page.getByText(linkLoginTexts.signedInAs("alice, ACME")).waitFor();
      await page.goto(`${suite.portal.url}/client/home`);
      await page.getByText("alice").first().waitFor(); // still alice's session: nothing was replaced
    } finally {
      attacker.close();
    }
  });

  test("with scripts off, a link's page continues by a plain form and lands; a spent link says Invalid Login by a GET", async () => {
    const page = await newPage({ javaScriptEnabled: false });
    const uuid = await mintLink("vendor", "vince");
    const address = `${suite.portal.url}/login?uuid=${uuid}&type=Vendor`;
    await page.goto(address);
    await page.getByRole("heading", { level: 1, name: linkLoginTexts.heading }).waitFor();
    await page.getByText(linkLoginTexts.withoutScript).waitFor();
    await page.getByRole("button", { name: linkLoginTexts.continueWithoutScript, exact: true }).click();
    await page.waitForURL(`${suite.portal.url}/vendor/home`);

    const spent = await newPage({ javaScriptEnabled: false });
    await spent.goto(address);
    await spent.getByRole("button", { name: linkLoginTexts.continueWithoutScript, exact: true }).click();
    await spent.waitForURL(`${suite.portal.url}/login`);
    await spent.getByRole("alert").filter({ hasText: linkLoginTexts.invalid }).waitFor();
    const [reloaded] = await Promise.all([
      spent.waitForRequest((request) => request.isNavigationRequest()),
      spent.reload(),
    ]);
    assert.equal(reloaded.method(), "GET", "Reload sends no form");
    await spent.getByRole("heading", { level: 1, name: linkLoginTexts.incompleteHeading }).waitFor();
  });

  test("with scripts off, a link opened beside a session waits for Continue with this link, which then replaces it", async () => {
    const page = await newPage({ javaScriptEnabled: false });
    const { url, sandboxUrl } = suite.portal;
    await page.goto(url);
    const before = await lastMailId(sandboxUrl, accounts.gary.email);
    await page.getByLabel("Company Short Name").fill("GLOBEX");
    await page.getByLabel("User ID").fill("gary");
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.waitForURL(`${url}/mfa`);
    await page.getByLabel("Code").fill(await nextCode(sandboxUrl, accounts.gary.email, before));
    await page.getByRole("button", { name: "Submit Code" }).click();
    await page.waitForURL(`${url}/client/home`);

    const uuid = await mintLink("vendor", "vince");
    await page.goto(`${url}/login?uuid=${uuid}&type=Vendor`);
    await page.getByRole("heading", { level: 1, name: linkLoginTexts.replaceHeading }).waitFor();
    // One button, with script or without: a plain form the island takes over.
    await page.getByRole("button", { name: linkLoginTexts.continueWithLink }).click();
    await page.waitForURL(`${url}/vendor/home`);
  });

  test("a bare /login says plainly that the link is incomplete and offers the sign-in page", async () => {
    const page = await newPage();
    let calls = 0;
    page.on("request", (request) => {
      if (request.url().includes("/api/auth/")) calls++;
    });
    await page.goto(`${suite.portal.url}/login`);
    await hydrated(page);
    await page.getByRole("heading", { level: 1, name: linkLoginTexts.incompleteHeading }).waitFor();
    await page.getByText(linkLoginTexts.incomplete).waitFor();
    assert.equal(await page.getByText("Invalid Login").count(), 0, "no failed sign-in to report");
    assert.equal(await page.getByRole("alert").count(), 0, "no error");
    const link = page.getByRole("link", { name: linkLoginTexts.signIn });
    assert.equal(await link.getAttribute("href"), "/");
    assert.equal(calls, 0, "nothing was tried");
    await link.click();
    await page.getByRole("button", { name: "Sign In", exact: true }).waitFor();
  });
});

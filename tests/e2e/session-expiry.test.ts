// Session expiry (SPEC.md 4.5, 8): a 401 on any call sends the user to the login page with the expired message.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Browser, BrowserContext } from "playwright-core";
import { DEMO_PASSWORD, launchBrowser, sandboxPost, startPortal } from "#tests/e2e/harness.ts";
import { hydrated, lastMailId, nextCode, openLogin, signIn, submitLogin, watchErrors } from "#tests/e2e/steps.ts";

type Portal = Awaited<ReturnType<typeof startPortal>>;
const EXPIRED = "Your session has expired. Please Login again";

describe("session expiry", () => {
  let portal: Portal;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const errors: string[][] = [];
  const newPage = async () => {
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    errors.push(watchErrors(page));
    return page;
  };

  before(async () => {
    portal = await startPortal();
    browser = await launchBrowser();
  });
  after(async () => {
    assert.deepEqual(errors.flat(), [], "no script or hydration errors");
    for (const context of contexts) await context.close();
    await browser?.close();
    await portal?.close();
  });

  test("revoked tokens: the next API call of a signed-in page lands on / with the message", async () => {
    const page = await newPage();
    await signIn(
      page,
      portal.url,
      portal.sandboxUrl,
      { site: "client", shortName: "ACME", userName: "alice", password: DEMO_PASSWORD },
      "alice@acme.example",
    );
    await page.waitForURL(`${portal.url}/client/home`);
    await page.goto(`${portal.url}/client/users/change-password`);
    await hydrated(page);
    await sandboxPost(portal.sandboxUrl, "/sandbox/tokens/revoke", { site: "client", username: "alice" });

    await page.getByLabel("Current Password").fill(DEMO_PASSWORD);
    await page.getByLabel("New Password").fill("Another-Secret-2026!");
    await page.getByLabel("Confirm Password").fill("Another-Secret-2026!");
    await page.getByRole("button", { name: "Change Password" }).click();
    await page.waitForURL(`${portal.url}/`);
    await page.getByRole("alert").filter({ hasText: EXPIRED }).waitFor();
    assert.ok(await page.getByRole("tab", { name: "CLIENT LOGIN" }).isEnabled(), "no token is held any more");
  });

  test("revoked during the MFA step: submitting a code lands on / with the message", async () => {
    const page = await newPage();
    const before = await lastMailId(portal.sandboxUrl, "vince@vendor.example");
    await openLogin(page, portal.url);
    await submitLogin(page, { site: "vendor", userName: "vince", password: DEMO_PASSWORD });
    await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
    const code = await nextCode(portal.sandboxUrl, "vince@vendor.example", before);
    await sandboxPost(portal.sandboxUrl, "/sandbox/tokens/revoke", { site: "vendor", username: "vince" });
    await page.getByLabel("Code").fill(code);
    await page.getByRole("button", { name: "Submit Code" }).click();
    await page.waitForURL(`${portal.url}/`);
    await page.getByRole("alert").filter({ hasText: EXPIRED }).waitFor();
    await page.getByRole("button", { name: "Login", exact: true }).waitFor();
  });
});

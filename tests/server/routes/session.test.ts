// Sign-out ends everything the browser held for the person, tax-bridge mode included: on a shared browser the next
// person starts afresh. Cancelling a sign-in ("Use another account") keeps the mode it began in.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, DEMO_PASSWORD, signIn } from "#harness/sign-in.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";

let portal: RunningPortal;
before(async () => {
  portal = await startPortalInProcess({ listen: false });
});
after(() => portal.close());

const landing = async (visitor: PortalClient) => (await visitor.get("/session/landing")).headers.location;

describe("sign-out and tax-bridge mode", () => {
  it("sign-out ends the mode: the next person on the browser lands on their home page", async () => {
    const browser = new PortalClient(portal.app);
    await browser.get("/tax-bridge/login");
    await signIn(browser, accounts.vera, portal.code);
    assert.equal(await landing(browser), "/vendor/invoice/due", "the mode was on");
    const out = await browser.post("/session/logout");
    assert.equal(out.status, 303);
    await signIn(browser, accounts.vera, portal.code);
    assert.equal(await landing(browser), "/vendor/home", "the next sign-in is not in tax-bridge mode");
  });

  it("cancelling a sign-in at its MFA step keeps the mode it began in", async () => {
    const browser = new PortalClient(portal.app);
    await browser.get("/tax-bridge/login");
    await browser.post("/api/auth/vendor", { username: "vera", password: DEMO_PASSWORD });
    const cancel = await browser.post("/session/logout", { intent: "use-another-account" });
    assert.equal(cancel.status, 303);
    await signIn(browser, accounts.vera, portal.code);
    assert.equal(await landing(browser), "/vendor/invoice/due");
  });
});

// A person signs in through a portal pointed at an upstream no one here wrote, one that speaks problem details
// (harness/upstream-dialect.ts): a wrong password reads "Invalid Login", a refused reset shows the upstream's own text
// (requirements 8), and the right password and code lead to the expired password's change, then the section.
// The same against a plain-text upstream, whose 401 to a sign-in shows in place.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { type Answer, happyUpstream } from "#harness/fake-upstream.ts";
import { DEMO_PASSWORD, FAKE_UPSTREAM_CODE } from "#harness/sign-in.ts";
import { screenshot } from "#tests/browser/harness.ts";
import { alerts, fileBrowser, openLogin, submitLogin, watchErrors } from "#tests/browser/steps.ts";
import { type PortalOnFake, portalOnFake } from "#tests/support/portal-on-fake.ts";

/**
 * Right password: a token, the password expired; any other: the upstream's own message and no token. A reset is
 * refused, its texts in arrays.
 */
const refusedReset = { status: 400, detail: "Validation failed.", errors: { EmailAddress: "No account uses it." } };
const right = happyUpstream({
  dialect: "problem-details",
  message: "Password Expired",
  refuse: { reset: refusedReset },
});
const wrong = happyUpstream({ dialect: "problem-details", refuseLogins: true });
const upstream = byPassword(right, wrong);

/** An upstream that answers a login with the demo password as `right` does, any other as `wrong`. */
function byPassword(right: Answer, wrong: Answer): Answer {
  return (call, response) => {
    const login = /^\/auth\/(client|vendor)$/.test(call.path);
    const password = login ? (JSON.parse(call.body || "{}") as { password?: string }).password : DEMO_PASSWORD;
    return (password === DEMO_PASSWORD ? right : wrong)(call, response);
  };
}

/** A portal on `answer`, and a page of a fresh browser context watching for script errors, for one describe. */
function portalAndPage(answer: Answer) {
  const opened = {} as { fake: PortalOnFake; page: Page; errors: string[] };
  before(async () => {
    opened.fake = await portalOnFake(answer, { listen: true });
    opened.page = await (await (await fileBrowser()).newContext()).newPage();
    opened.errors = watchErrors(opened.page);
  });
  after(async () => {
    await opened.page?.context().close();
    await opened.fake?.close();
  });
  return opened;
}

describe("a sign-in against a problem-details upstream", () => {
  const opened = portalAndPage(upstream);

  test("a wrong password is Invalid Login, a refused reset shows its text, the right one signs in and changes the password", async () => {
    const { fake, page, errors } = opened;
    const alice = { site: "client", shortName: "ACME", userName: "alice" } as const;
    await openLogin(page, fake.url);
    await submitLogin(page, { ...alice, password: "Wrong-Password-2026!" });
    await page.getByRole("alert").filter({ hasText: "Invalid Login" }).waitFor();
    assert.doesNotMatch(await alerts(page), /Action Failed|Invalid username/);
    await screenshot(page, "other-upstream-invalid-login");

    await page.getByRole("link", { name: "Reset Password" }).click();
    await page.getByLabel("Company Short Name").fill("ACME");
    await page.getByLabel("Email Address").fill("alice@acme.example");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.getByRole("alert").filter({ hasText: "No account uses it." }).waitFor();
    await page.getByRole("button", { name: "Return To Login" }).click();

    await submitLogin(page, { ...alice, password: DEMO_PASSWORD });
    await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
    await page.getByLabel("Code").fill(FAKE_UPSTREAM_CODE);
    await page.getByLabel("Code").press("Enter");
    await page.getByText("Your password has expired. Please enter a new password").waitFor();
    assert.equal(await page.getByLabel("Current Password").inputValue(), DEMO_PASSWORD, "prefilled from the login");
    await page.getByLabel("New Password").fill("Brand-New-Upstream-2026!");
    await page.getByLabel("Confirm Password").fill("Brand-New-Upstream-2026!");
    await page.getByRole("button", { name: "Change Password" }).click();
    await page.waitForURL(/\/client\/home$/);
    assert.equal(fake.upstream.callsTo(/^\/web\/client\/password\/change$/).length, 1, "the password was changed");
    await screenshot(page, "other-upstream-signed-in");
    assert.ok(fake.upstream.callsTo(/^\/web\/client\/mfa\/generate$/).length > 0, "a code was sent (an empty 204)");
    assert.deepEqual(errors, [], "no script or hydration error");
  });
});

/**
 * A plain-text upstream (harness/upstream-dialect.ts): a wrong password refused with a 401 (review F5), successes read
 * by their status answered in words ("Code sent", "Password changed": review F1), JSON behind a byte-order mark.
 */
const plainRight = happyUpstream({ dialect: "plain-text", message: "Password Expired" });
const plainWrong = happyUpstream({
  dialect: "plain-text",
  refuse: { login: { status: 401, detail: "Bad credentials" } },
});
const plainUpstream = byPassword(plainRight, plainWrong);

describe("a sign-in against a plain-text upstream", () => {
  const opened = portalAndPage(plainUpstream);

  test("a sign-in refused with a 401 shows requirements 8's text in place; the right one changes the password answered in words", async () => {
    const { fake, page, errors } = opened;
    const alice = { site: "client", shortName: "ACME", userName: "alice" } as const;
    await openLogin(page, fake.url);
    await submitLogin(page, { ...alice, password: "Wrong-Password-2026!" });
    await page.getByRole("alert").filter({ hasText: "Your session has expired. Please Login again" }).waitFor();
    assert.equal(await page.getByLabel("User ID").inputValue(), "alice", "the form keeps what was typed");
    assert.equal(new URL(page.url()).pathname, "/");

    await submitLogin(page, { ...alice, password: DEMO_PASSWORD });
    await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
    await page.getByLabel("Code").fill(FAKE_UPSTREAM_CODE);
    await page.getByLabel("Code").press("Enter");
    await page.getByText("Your password has expired. Please enter a new password").waitFor();
    await page.getByLabel("New Password").fill("Brand-New-Plain-Text-2026!");
    await page.getByLabel("Confirm Password").fill("Brand-New-Plain-Text-2026!");
    await page.getByRole("button", { name: "Change Password" }).click();
    await page.waitForURL(/\/client\/home$/);
    assert.doesNotMatch(await alerts(page), /Action Failed/);
    assert.deepEqual(errors, [], "no script or hydration error");
  });
});

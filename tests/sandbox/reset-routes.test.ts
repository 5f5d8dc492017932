// The sandbox's password reset as a person meets it through the portal (sandbox/reset-routes.ts): asking for a
// reset changes nothing, and the mailed link sets a new password once, within its lifetime.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { PortalClient } from "#harness/portal-client.ts";
import { type Account, accounts, DEMO_PASSWORD, latestMail, signIn } from "#harness/sign-in.ts";
import { escapeHtml } from "#sandbox/html.ts";
import { meetsPasswordRules } from "#sandbox/passwords.ts";
import { RESET_LINK_LIFETIME_MS } from "#sandbox/reset-links.ts";
import { serverTexts } from "#server/texts.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";
import { resetForm, resetLinkPath } from "#tests/support/reset-link.ts";

let clock = Date.parse("2026-03-02T09:00:00.000Z");
let portal: RunningPortal;
describe("sandbox/reset-routes", () => {
  before(async () => {
    portal = await startPortalInProcess({ listen: false, sandboxNow: () => clock });
  });
  after(() => portal.close());

  const NEW_PASSWORD = "Reset-Fresh-2026!";

  /** The portal's reset panel's call (requirements 3.2), then the link in the mail it sent. */
  async function requestReset(account: Account): Promise<{ path: string; body: string }> {
    const shortname = account.site === "client" ? account.shortname : "";
    const answer = await new PortalClient(portal.app).post("/api/web/reset-pwd", {
      clientShortName: shortname,
      emailAddress: account.email,
    });
    assert.equal(answer.status, 200, answer.text);
    const { body } = await latestMail(portal.sandboxUrl, account.email);
    return { path: resetLinkPath(body), body };
  }

  /** The login step's answer for a password: whether the upstream gave a token, and the account's state. */
  async function passwordLogin(account: Account, password: string) {
    const body =
      account.site === "client"
        ? { shortname: account.shortname, username: account.username, password }
        : { username: account.username, password };
    return (await new PortalClient(portal.app).post(`/api/auth/${account.site}`, body)).json();
  }

  const postForm = (path: string, password: string, confirm = password) =>
    new PortalClient(portal.app).post("/sandbox/reset", resetForm(path, password, confirm));
  /** The form posted, then the page its 303 leads to, as a browser follows it. */
  async function followed(path: string, password: string) {
    const posted = await postForm(path, password);
    assert.equal(posted.status, 303, posted.text);
    assert.equal(posted.headers.location, path, "back to the link's own page");
    return new PortalClient(portal.app).get(String(posted.headers.location));
  }

  describe("asking for a password reset", () => {
    test("changes nothing: the old password still signs in, before and after the link is opened", async () => {
      const { path } = await requestReset(accounts.victor);
      assert.deepEqual(await passwordLogin(accounts.victor, DEMO_PASSWORD), { message: "Success", tokenHeld: true });
      assert.equal((await new PortalClient(portal.app).get(path)).status, 200);
      await signIn(portal.app, accounts.victor, portal.code);
    });

    test("e-mails a one-time link and no password", async () => {
      const { body, path } = await requestReset(accounts.vince);
      assert.doesNotMatch(body, /temporary|password is/i);
      assert.ok(!body.includes(DEMO_PASSWORD));
      assert.match(body, /works once and expires in 30 minutes/);
      const words = body.split(/\s+/).filter((word) => !word.includes(path));
      assert.deepEqual(
        words.filter((word) => meetsPasswordRules(word)),
        [],
        "nothing in the mail but its link could be a password",
      );
    });
  });

  describe("the mailed reset link", () => {
    test("opens a form for a new password; the new password then applies and the old one no longer does", async () => {
      const { path } = await requestReset(accounts.gary);
      const form = await new PortalClient(portal.app).get(path);
      assert.equal(form.status, 200);
      assert.match(form.text, /Choose a new password/);
      assert.match(form.text, /gary/);
      const sent = await postForm(path, NEW_PASSWORD);
      assert.equal(sent.status, 303, sent.text);
      assert.equal(sent.headers.location, "/sandbox/reset/done");
      assert.match(
        (await new PortalClient(portal.app).get("/sandbox/reset/done")).text,
        /Your password has been changed/,
      );
      assert.deepEqual(await passwordLogin(accounts.gary, DEMO_PASSWORD), { tokenHeld: false });
      const [login] = (await signIn(portal.app, accounts.gary, portal.code, NEW_PASSWORD)).answers;
      assert.equal(login?.json().message, "Success");
    });

    test("works once: a second use is refused with a clear page and changes nothing", async () => {
      const { path } = await requestReset(accounts.alice);
      assert.equal((await postForm(path, NEW_PASSWORD)).status, 303);
      for (const again of [await new PortalClient(portal.app).get(path), await followed(path, "Another-Try-2026!")]) {
        assert.equal(again.status, 410);
        assert.match(again.text, /This password-reset link has already been used\./);
      }
      assert.equal((await passwordLogin(accounts.alice, NEW_PASSWORD)).message, "Success");
    });

    test("keeps the form and the token when the new password breaks the rules, in requirements 5's words", async () => {
      const { path } = await requestReset(accounts.vera);
      const cases = [
        ["short-1A!", "short-1A!", "too-short", "Password must be at least 12 characters in length."],
        [NEW_PASSWORD, "Reset-Other-2026!", "mismatch", "New and confirm password do not match."],
        ["nouppercase-2026!", "nouppercase-2026!", "weak", "Password does not meet password requirements"],
        // What the portal's own change call refuses as easily guessed (server/actions/checks.ts), the form refuses too.
        ["Password123!", "Password123!", "common", serverTexts.commonPassword.message],
        ["Qwerty123456!", "Qwerty123456!", "common", serverTexts.commonPassword.message],
        // Built from her own user ID: told apart, as the checklist cannot show that rule.
        ["Vera-Ledger-2026!", "Vera-Ledger-2026!", "personal", serverTexts.personalPassword.message],
      ] as const;
      for (const [password, confirm, code, message] of cases) {
        // Post/redirect/get: the refusal is a 303 back to the link's page, the reason a code in its address, never
        // what was typed; that page's GET shows the reason, so Back or Reload never posts the form again.
        const refused = await postForm(path, password, confirm);
        assert.equal(refused.status, 303, refused.text);
        assert.equal(refused.headers.location, `${path}&error=${code}`);
        assert.ok(
          !String(refused.headers.location).includes(encodeURIComponent(password)),
          "no password in the address",
        );
        const page = await new PortalClient(portal.app).get(String(refused.headers.location));
        assert.equal(page.status, 200);
        assert.ok(page.text.includes(`<p role="alert" id="reset-problem">${escapeHtml(message)}</p>`), page.text);
        assert.ok(
          page.text.includes(`name="token" value="${resetForm(path, "").get("token")}"`),
          "the form keeps its token",
        );
      }
      const token = resetForm(path, "").get("token") ?? "";
      const fields: [URLSearchParams, string][] = [
        [new URLSearchParams({ token, newPassword: NEW_PASSWORD }), "confirm-missing"],
        [new URLSearchParams({ token, confirmPassword: NEW_PASSWORD }), "new-missing"],
        [new URLSearchParams({ token, newPassword: "x".repeat(257), confirmPassword: "x" }), "new-too-long"],
      ];
      for (const [form, code] of fields) {
        const refused = await new PortalClient(portal.app).post("/sandbox/reset", form);
        assert.equal(refused.headers.location, `${path}&error=${code}`, code);
      }
      const plain = await new PortalClient(portal.app).get(`${path}&error=not-a-code`);
      assert.equal(plain.status, 200);
      assert.doesNotMatch(plain.text, /<p role="alert"/, "a code the page does not know shows nothing");
      assert.equal((await passwordLogin(accounts.vera, DEMO_PASSWORD)).message, "Success", "nothing changed yet");
      assert.equal((await postForm(path, NEW_PASSWORD)).status, 303, "the link still works");
    });

    test("expires after 30 minutes, and an expired link changes nothing", async () => {
      const { path } = await requestReset(accounts.paula);
      clock += RESET_LINK_LIFETIME_MS;
      for (const late of [await new PortalClient(portal.app).get(path), await followed(path, NEW_PASSWORD)]) {
        assert.equal(late.status, 410);
        assert.match(late.text, /This password-reset link has expired/);
      }
      assert.equal((await passwordLogin(accounts.paula, DEMO_PASSWORD)).message, "Password Expired");
    });

    test("a newer request voids no older link: the first mail's link works, and then the others are spent", async () => {
      const older = await requestReset(accounts.petra);
      const newer = await requestReset(accounts.petra);
      assert.notEqual(older.path, newer.path);
      assert.equal((await new PortalClient(portal.app).get(newer.path)).status, 200);
      assert.equal((await postForm(older.path, NEW_PASSWORD)).status, 303);
      const spent = await new PortalClient(portal.app).get(newer.path);
      assert.equal(spent.status, 410);
    });

    test("a forged, mangled or missing token is refused with a clear page", async () => {
      const { path } = await requestReset(accounts.victor);
      const forged = [
        `/sandbox/reset?token=${"A".repeat(43)}`,
        path.replace(/.$/, (last) => (last === "A" ? "B" : "A")),
        "/sandbox/reset",
      ];
      for (const attempt of forged) {
        const answer = await new PortalClient(portal.app).get(attempt);
        assert.equal(answer.status, 404, attempt);
        assert.match(answer.text, /This password-reset link is not valid/);
        const posted = await postForm(attempt, NEW_PASSWORD);
        assert.equal(posted.status, 303, "a form's answer is a redirect to a GET, whatever its token");
        assert.equal((await new PortalClient(portal.app).get(String(posted.headers.location))).status, 404);
      }
      assert.equal((await passwordLogin(accounts.victor, DEMO_PASSWORD)).message, "Success");
    });
  });
});

// The /web operations of openapi/portal.yaml on the sandbox (sandbox/web-routes.ts): MFA, the password reset
// request, password test and change, and the permissions.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { components } from "#openapi/schema.ts";
import { SEED_PASSWORD, seedAccounts } from "#sandbox/seed.ts";
import { resetForm, resetLinkPath } from "#tests/support/reset-link.ts";
import { PORTAL_URL, type SandboxUnderTest, startSandboxUnderTest } from "#tests/support/sandbox-calls.ts";

type Schemas = components["schemas"];

const RESET_SUBJECT = "Reset your password";

let sandbox: SandboxUnderTest;
describe("sandbox/web-routes", () => {
  before(async () => {
    sandbox = await startSandboxUnderTest();
  });
  after(() => sandbox.close());

  describe("multi-factor verification", () => {
    test("generate e-mails a six-digit code and the code from the e-mail passes and verifies the token", async () => {
      const token = await sandbox.unverifiedToken("client", "gary", SEED_PASSWORD, "GLOBEX");
      const generate = await sandbox.generate("client", token);
      assert.deepEqual([generate.status, generate.body], [200, { ok: true }]);
      const [mail] = await sandbox.mailsTo("gary@globex.example");
      assert.equal(mail?.subject, "Your verification code");
      const code = await sandbox.latestCode("gary@globex.example");
      assert.deepEqual((await sandbox.validate("client", token, code)).body, [{ text: "Passed" }]);
      assert.equal((await sandbox.call("GET", "/web/client/user-info", { token })).status, 200);
    });

    test("a code longer than 8 characters is a bad request", async () => {
      const token = await sandbox.unverifiedToken("client", "victor");
      const answer = await sandbox.call<Schemas["ErrorAnswer"]>("POST", "/web/client/mfa/validate/123456789", {
        token,
      });
      assert.equal(answer.status, 400);
      assert.ok(answer.body.errors?.code);
    });

    test("an unverified token answers 401 on user-info, track, password test and change", async () => {
      const token = await sandbox.unverifiedToken("client", "alice");
      const calls = [
        sandbox.call("GET", "/web/client/user-info", { token }),
        sandbox.call("POST", "/web/track", { token, body: { page: "/client/home" } }),
        sandbox.call("POST", "/web/client/password/test", {
          token,
          body: { userId: "alice", password: SEED_PASSWORD },
        }),
        sandbox.call("POST", "/web/client/password/change", { token, body: { password: "Another-Pass-2026!" } }),
      ];
      for (const answer of await Promise.all(calls)) assert.equal(answer.status, 401);
    });
  });

  describe("password reset, test and change", () => {
    test("reset e-mails a one-time link and no password; the old password works until the link sets a new one", async () => {
      const reset = await sandbox.call("POST", "/web/reset-pwd", {
        body: { clientShortName: "acme", emailAddress: "VICTOR@acme.example" },
      });
      assert.deepEqual([reset.status, reset.body], [200, { ok: true }]);
      const [mail] = await sandbox.mailsTo("victor@acme.example");
      assert.equal(mail?.subject, RESET_SUBJECT);
      const path = resetLinkPath(mail?.body ?? "");
      assert.ok(mail?.body.includes(`${PORTAL_URL}${path}`), "the link is the portal's address");
      assert.doesNotMatch(mail?.body ?? "", /password is/i);
      assert.equal((await sandbox.signIn("client", "victor")).body.message, "Success", "the old password still works");
      const form = await sandbox.call<string>("GET", path);
      assert.equal(form.status, 200);
      assert.equal(form.headers.get("cache-control"), "no-store");
      const set = await sandbox.call("POST", "/sandbox/reset", {
        raw: resetForm(path, "Harbour-Lamp-2026!").toString(),
        contentType: "application/x-www-form-urlencoded",
      });
      assert.deepEqual([set.status, set.headers.get("location")], [303, "/sandbox/reset/done"]);
      assert.deepEqual((await sandbox.signIn("client", "victor")).body, {}, "the old password no longer works");
      assert.equal((await sandbox.signIn("client", "victor", "Harbour-Lamp-2026!")).body.message, "Success");
      await sandbox.verifiedBySignIn("client", "victor", "victor@acme.example", "Harbour-Lamp-2026!");
    });

    test("reset finds a vendor by e-mail alone", async () => {
      const before = (await sandbox.mailsTo("vince@vendor.example")).length;
      await sandbox.call("POST", "/web/reset-pwd", {
        body: { clientShortName: "", emailAddress: "vince@vendor.example" },
      });
      const mails = await sandbox.mailsTo("vince@vendor.example");
      assert.equal(mails.length, before + 1);
      assert.equal(mails[0]?.subject, RESET_SUBJECT);
    });

    test("reset answers 200 ok and sends nothing when no active account matches", async () => {
      const bodies = [
        { clientShortName: "", emailAddress: "nobody@vendor.example" },
        { clientShortName: "GLOBEX", emailAddress: "alice@acme.example" },
        { clientShortName: "ACME", emailAddress: "vera@vendor.example" },
        { clientShortName: "ACME", emailAddress: "dora@acme.example" },
      ];
      for (const body of bodies) {
        const answer = await sandbox.call("POST", "/web/reset-pwd", { body });
        assert.deepEqual([answer.status, answer.body], [200, { ok: true }]);
      }
      for (const to of ["alice@acme.example", "dora@acme.example", "vera@vendor.example"]) {
        const resetMails = (await sandbox.mailsTo(to)).filter((mail) => mail.subject === RESET_SUBJECT);
        assert.equal(resetMails.length, 0, to);
      }
      assert.equal((await sandbox.call("POST", "/web/reset-pwd", { body: { clientShortName: "ACME" } })).status, 400);
    });

    test("the password test refuses a wrong password or another user's ID with 400 and a description", async () => {
      const token = await sandbox.verifiedByLink("client", "alice");
      for (const body of [
        { userId: "alice", password: "Wrong-Password-1!" },
        { userId: "gary", password: SEED_PASSWORD },
      ]) {
        const answer = await sandbox.call("POST", "/web/client/password/test", { token, body });
        assert.deepEqual([answer.status, answer.body], [400, { description: "The current password is not correct." }]);
      }
      const missing = await sandbox.call("POST", "/web/client/password/test", { token, body: { userId: "alice" } });
      assert.equal(missing.status, 400);
    });

    test("the password test passes the current password under the user's ID in any case", async () => {
      const token = await sandbox.verifiedByLink("client", "alice");
      const answer = await sandbox.call("POST", "/web/client/password/test", {
        token,
        body: { userId: "ALICE", password: SEED_PASSWORD },
      });
      assert.deepEqual([answer.status, answer.body], [200, { ok: true }]);
    });

    test("a password change refuses a password that breaks the rules or equals the current one", async () => {
      const token = await sandbox.verifiedByLink("vendor", "petra");
      const cases = [
        ["short-1A!", "Password does not meet password requirements"],
        ["nouppercase-2026!", "Password does not meet password requirements"],
        ["No-Digits-At-All!", "Password does not meet password requirements"],
        ["NoSpecial2026abc", "Password does not meet password requirements"],
        [SEED_PASSWORD, "The new password must differ from the current one."],
      ];
      for (const [password, message] of cases) {
        const answer = await sandbox.call("POST", "/web/vendor/password/change", { token, body: { password } });
        assert.deepEqual([answer.status, answer.body], [400, { errors: { password: message } }]);
      }
      const changed = await sandbox.call("POST", "/web/vendor/password/change", {
        token,
        body: { password: "Petra-Fresh-2026?" },
      });
      assert.equal(changed.status, 200);
      assert.equal((await sandbox.signIn("vendor", "petra", "Petra-Fresh-2026?")).body.message, "Success");
    });
  });

  describe("permissions", () => {
    test("each active seed account's permissions come back as UserInfo with loaded true", async () => {
      for (const account of seedAccounts.filter((seed) => seed.loginMessage !== "Deactivated")) {
        const token = await sandbox.verifiedByLink(account.site, account.username, account.shortname);
        const answer = await sandbox.call<Schemas["UserInfo"]>("GET", `/web/${account.site}/user-info`, { token });
        const who = `${account.shortname ?? "vendor"}/${account.username}`;
        assert.deepEqual(answer.body, { loaded: true, ...account.permissions }, who);
      }
      const byName = new Map(
        seedAccounts
          .filter((account) => account.shortname !== "GLOBEX" || account.username !== "alice")
          .map((account) => [account.username, account.permissions]),
      );
      assert.equal(byName.get("alice")?.isAdmin, true);
      assert.deepEqual(byName.get("victor")?.clientServices, ["1894"]);
      assert.equal(byName.get("victor")?.viewOnly, true);
      assert.equal(byName.get("gary")?.vipTier, "1");
      assert.ok(!byName.get("gary")?.clientServices.includes("88689"));
      assert.deepEqual(byName.get("vera")?.beneServices, ["60562"]);
      assert.equal(byName.get("vince")?.userTier, "0");
    });
  });
});

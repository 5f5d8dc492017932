// The sign-in operations of openapi/portal.yaml on the sandbox (sandbox/auth-routes.ts): by password, by link.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { components } from "#openapi/schema.ts";
import { SEED_PASSWORD } from "#sandbox/seed.ts";
import { type CallOptions, type SandboxUnderTest, startSandboxUnderTest } from "#tests/support/sandbox-calls.ts";

type Schemas = components["schemas"];

let sandbox: SandboxUnderTest;
describe("sandbox/auth-routes", () => {
  before(async () => {
    sandbox = await startSandboxUnderTest();
  });
  after(() => sandbox.close());

  describe("sign-in by password", () => {
    test("a client signs in by company short name, user ID and password, case-insensitively, and gets a token with the message Success", async () => {
      const { status, body } = await sandbox.signIn("client", "ALICE", SEED_PASSWORD, "acme");
      assert.equal(status, 200);
      assert.equal(body.message, "Success");
      assert.match(body.token ?? "", /^[A-Za-z0-9_-]{43}$/);
    });

    test("a vendor signs in by user ID and password alone", async () => {
      const { body } = await sandbox.signIn("vendor", "Vera");
      assert.equal(body.message, "Success");
      assert.ok(body.token);
    });

    test("an unknown user and a wrong password both get 200 {} with no token and no message", async () => {
      const attempts = [
        sandbox.signIn("client", "nobody"),
        sandbox.signIn("client", "alice", "Wrong-Password-1!"),
        sandbox.signIn("client", "alice", SEED_PASSWORD, "INITECH"),
        sandbox.signIn("vendor", "nobody"),
        sandbox.signIn("vendor", "vera", "Wrong-Password-1!"),
        sandbox.signIn("vendor", "alice"),
      ];
      for (const answer of await Promise.all(attempts)) {
        assert.equal(answer.status, 200);
        assert.deepEqual(answer.body, {});
      }
    });

    test("an account whose password has expired signs in with the message Password Expired", async () => {
      const { body } = await sandbox.signIn("vendor", "petra");
      assert.equal(body.message, "Password Expired");
      assert.ok(body.token);
    });

    test("a deactivated account gets the message Deactivated and a token that authorizes nothing", async () => {
      for (const [site, username] of [
        ["client", "dora"],
        ["vendor", "dmitri"],
      ] as const) {
        const { body } = await sandbox.signIn(site, username);
        assert.equal(body.message, "Deactivated");
        assert.ok(body.token);
        assert.equal((await sandbox.generate(site, body.token)).status, 401);
      }
      assert.deepEqual((await sandbox.signIn("client", "dora", "Wrong-Password-1!")).body, {});
    });

    test("a sign-in body that breaks the schema is answered 400 with one error per field, never 500", async () => {
      const cases: [string, CallOptions, string][] = [
        ["/auth/client", { body: { shortname: "ACME", username: "alice" } }, "password"],
        ["/auth/client", { body: { shortname: "", username: "alice", password: "x" } }, "shortname"],
        ["/auth/client", { body: { shortname: "ACME", username: "alice", password: "x", role: "admin" } }, "role"],
        ["/auth/client", { body: { shortname: "ACME", username: 7, password: "x" } }, "username"],
        ["/auth/vendor", { body: { username: "v".repeat(129), password: "x" } }, "username"],
        ["/auth/vendor", { body: ["vera"] }, "body"],
        ["/auth/vendor", { raw: "{not json" }, "body"],
        ["/auth/vendor", {}, "body"],
      ];
      for (const [path, options, field] of cases) {
        const answer = await sandbox.call<Schemas["ErrorAnswer"]>("POST", path, options);
        assert.equal(answer.status, 400, `${path} ${JSON.stringify(options)}`);
        assert.equal(typeof answer.body.errors?.[field], "string", `errors.${field} in ${JSON.stringify(answer.body)}`);
      }
    });
  });

  describe("sign-in by link", () => {
    test("a link signs in once with an already verified token; a second use gets {}", async () => {
      const { uuid } = await sandbox.linkLogin("client", "victor");
      const first = await sandbox.call<Schemas["LinkLoginResponse"]>("POST", `/auth/client-token?uuid=${uuid}`);
      assert.ok(first.body.token);
      assert.deepEqual(
        [first.body.username, first.body.shortname],
        ["victor", "ACME"],
        "a client's link names her company",
      );
      assert.equal((await sandbox.call("GET", "/web/client/user-info", { token: first.body.token })).status, 200);
      assert.deepEqual((await sandbox.call("POST", `/auth/client-token?uuid=${uuid}`)).body, {});
    });

    test("a link answers the account's state and whose account it is, as a password sign-in does", async () => {
      const { uuid } = await sandbox.linkLogin("vendor", "petra");
      const { body } = await sandbox.call<Schemas["LinkLoginResponse"]>("POST", `/auth/vendor-token?uuid=${uuid}`);
      assert.equal(body.message, "Password Expired");
      assert.equal(body.username, "petra");
      assert.equal(body.shortname, undefined, "a vendor has no company");
      assert.match(body.token ?? "", /^[A-Za-z0-9_-]{43}$/);
    });

    test("an unknown uuid gets {} and a missing uuid is a bad request", async () => {
      const unknown = await sandbox.call("POST", "/auth/vendor-token?uuid=00000000-0000-0000-0000-000000000000");
      assert.deepEqual([unknown.status, unknown.body], [200, {}]);
      const missing = await sandbox.call<Schemas["ErrorAnswer"]>("POST", "/auth/vendor-token");
      assert.equal(missing.status, 400);
      assert.equal(typeof missing.body.errors?.uuid, "string");
    });
  });
});

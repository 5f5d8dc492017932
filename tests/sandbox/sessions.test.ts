// The sandbox's bearer tokens, MFA codes and sign-in links and their lifetimes (sandbox/sessions.ts), as the
// portal meets them over HTTP.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { components } from "#openapi/schema.ts";
import { MINUTE, otherCode, type SandboxUnderTest, startSandboxUnderTest } from "#tests/support/sandbox-calls.ts";

type Schemas = components["schemas"];

let sandbox: SandboxUnderTest;
describe("sandbox/sessions", () => {
  before(async () => {
    sandbox = await startSandboxUnderTest();
  });
  after(() => sandbox.close());

  describe("bearer tokens", () => {
    test("a token expires after 8 hours", async () => {
      const token = await sandbox.verifiedByLink("client", "alice");
      sandbox.clock.advance(8 * 60 * MINUTE - 1);
      assert.equal((await sandbox.call("GET", "/web/client/user-info", { token })).status, 200);
      sandbox.clock.advance(1);
      assert.equal((await sandbox.call("GET", "/web/client/user-info", { token })).status, 401);
    });
  });

  describe("multi-factor codes", () => {
    test("a wrong code fails and leaves the token unverified", async () => {
      const token = await sandbox.unverifiedToken("vendor", "vince");
      await sandbox.generate("vendor", token);
      const code = await sandbox.latestCode("vince@vendor.example");
      assert.deepEqual((await sandbox.validate("vendor", token, otherCode(code))).body, [{ text: "Failed" }]);
      assert.equal((await sandbox.call("GET", "/web/vendor/user-info", { token })).status, 401);
      assert.deepEqual((await sandbox.validate("vendor", token, code)).body, [{ text: "Passed" }]);
    });

    test("a code expires 10 minutes after it was generated", async () => {
      const token = await sandbox.unverifiedToken("client", "paula");
      await sandbox.generate("client", token);
      const code = await sandbox.latestCode("paula@acme.example");
      sandbox.clock.advance(10 * MINUTE);
      assert.deepEqual((await sandbox.validate("client", token, code)).body, [{ text: "Failed" }]);
    });

    test("Send Again replaces the code: the earlier code fails and the newest passes", async () => {
      const token = await sandbox.unverifiedToken("client", "paula");
      await sandbox.generate("client", token);
      const first = await sandbox.latestCode("paula@acme.example");
      await sandbox.generate("client", token);
      const second = await sandbox.latestCode("paula@acme.example");
      if (first !== second)
        assert.deepEqual((await sandbox.validate("client", token, first)).body, [{ text: "Failed" }]);
      assert.deepEqual((await sandbox.validate("client", token, second)).body, [{ text: "Passed" }]);
    });

    test("the device memory: the last accepted code passes silently at the next sign-in, on that device and for that user only", async () => {
      const device = "device-of-paula-0001";
      await sandbox.verifiedBySignIn("client", "paula", "paula@acme.example", undefined, device);
      const remembered = await sandbox.latestCode("paula@acme.example");
      const mailCount = (await sandbox.mailsTo("paula@acme.example")).length;
      const token = await sandbox.unverifiedToken("client", "paula");
      assert.deepEqual((await sandbox.validate("client", token, remembered, device)).body, [{ text: "Passed" }]);
      assert.equal((await sandbox.mailsTo("paula@acme.example")).length, mailCount, "no new code was needed");
      const otherUser = await sandbox.unverifiedToken("client", "victor");
      assert.deepEqual((await sandbox.validate("client", otherUser, remembered, device)).body, [{ text: "Failed" }]);
    });

    test("after ten wrong codes a token validates nothing, not even the right code", async () => {
      const token = await sandbox.unverifiedToken("client", "victor");
      await sandbox.generate("client", token);
      const code = await sandbox.latestCode("victor@acme.example");
      for (let attempt = 0; attempt < 10; attempt++) await sandbox.validate("client", token, otherCode(code));
      assert.deepEqual((await sandbox.validate("client", token, code)).body, [{ text: "Failed" }]);
    });

    test("the ten wrong codes count per token: a fresh sign-in may validate again", async () => {
      const spent = await sandbox.unverifiedToken("client", "victor");
      await sandbox.generate("client", spent);
      const code = await sandbox.latestCode("victor@acme.example");
      for (let attempt = 0; attempt < 10; attempt++) await sandbox.validate("client", spent, otherCode(code));
      const fresh = await sandbox.unverifiedToken("client", "victor");
      await sandbox.generate("client", fresh);
      const freshCode = await sandbox.latestCode("victor@acme.example");
      assert.deepEqual((await sandbox.validate("client", fresh, freshCode)).body, [{ text: "Passed" }]);
    });
  });

  describe("sign-in links", () => {
    test("a link works only at its own site's endpoint, for 24 hours, and never for a deactivated user", async () => {
      const { uuid } = await sandbox.linkLogin("client", "alice");
      assert.deepEqual((await sandbox.call("POST", `/auth/vendor-token?uuid=${uuid}`)).body, {});
      sandbox.clock.advance(24 * 60 * MINUTE);
      assert.deepEqual((await sandbox.call("POST", `/auth/client-token?uuid=${uuid}`)).body, {});
      const dora = await sandbox.linkLogin("client", "dora");
      assert.deepEqual((await sandbox.call("POST", `/auth/client-token?uuid=${dora.uuid}`)).body, {});
    });

    test("a link tried at the other site's endpoint stays unspent, and works at its own until a moment before 24 hours", async () => {
      const { uuid } = await sandbox.linkLogin("vendor", "vera");
      assert.deepEqual((await sandbox.call("POST", `/auth/client-token?uuid=${uuid}`)).body, {});
      sandbox.clock.advance(24 * 60 * MINUTE - 1);
      const answer = await sandbox.call<Schemas["LinkLoginResponse"]>("POST", `/auth/vendor-token?uuid=${uuid}`);
      assert.equal(answer.body.username, "vera");
    });
  });
});

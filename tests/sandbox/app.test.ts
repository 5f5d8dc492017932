// The sandbox upstream assembled (sandbox/app.ts): every operation of openapi/portal.yaml is served, and the
// app is built from its options. What each route does is tested in the file of the module that holds it.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { buildSandbox } from "#sandbox/app.ts";
import { loadOperations } from "#server/upstream/operations.ts";
import { type SandboxUnderTest, startSandboxUnderTest } from "#tests/support/sandbox-calls.ts";

let sandbox: SandboxUnderTest;
describe("sandbox/app", () => {
  before(async () => {
    sandbox = await startSandboxUnderTest();
  });
  after(() => sandbox.close());

  /** A value for each path parameter the description names, one the sandbox knows. */
  const SAMPLE_PARAMETERS: Record<string, string> = {
    site: "client",
    audience: "client",
    code: "123456",
    fileName: "BankHolidays.pdf",
  };

  describe("the assembled sandbox", () => {
    test("every operation of openapi/portal.yaml is served at its path and method, never by the not-found answer", async () => {
      const operations = loadOperations();
      assert.ok(operations.length >= 12);
      for (const operation of operations) {
        const path = operation.path.replace(/\{(\w+)\}/g, (_whole, name: string) => {
          const value = SAMPLE_PARAMETERS[name];
          assert.ok(value, `a sample value for {${name}}`);
          return value;
        });
        const answer = await sandbox.call(operation.method, path);
        assert.notDeepEqual(
          [answer.status, answer.body],
          [404, { detail: "Not Found" }],
          `${operation.method} ${operation.path}`,
        );
      }
    });

    test("a portal address given with trailing slashes is written into mailed links without them", async () => {
      const app = await buildSandbox({
        dbPath: ":memory:",
        portalUrl: "http://portal.test//",
        now: () => 0,
        testPasswordCost: true,
      });
      try {
        const answer = await app.inject({
          method: "POST",
          url: "/sandbox/link-login",
          payload: { site: "vendor", username: "vera" },
        });
        assert.match(answer.json<{ url: string }>().url, /^http:\/\/portal\.test\/login\?uuid=/);
      } finally {
        await app.close();
      }
    });

    test("each mail the sandbox sends is handed to the listener it was built with, and its time is the given clock's", async () => {
      const heard: string[] = [];
      const app = await buildSandbox({
        dbPath: ":memory:",
        portalUrl: "http://portal.test",
        testPasswordCost: true,
        now: () => Date.parse("2026-03-02T09:00:00.000Z"),
        onMail: (mail) => heard.push(`${mail.to} ${mail.subject} ${mail.sentAt}`),
      });
      try {
        await app.inject({
          method: "POST",
          url: "/sandbox/link-login",
          payload: { site: "client", username: "alice" },
        });
        assert.deepEqual(heard, ["alice@acme.example Your sign-in link 2026-03-02T09:00:00.000Z"]);
      } finally {
        await app.close();
      }
    });
  });
});

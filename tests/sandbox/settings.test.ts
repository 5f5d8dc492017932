// sandbox/settings.ts: the sandbox alone reads its port, database and the portal's address, with defaults.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sandboxSettings } from "#sandbox/settings.ts";

describe("the sandbox's settings", () => {
  it("default to port 3100, data/sandbox.sqlite and a portal at http://localhost:3000", () => {
    assert.deepEqual(sandboxSettings({}), {
      port: 3100,
      dbPath: "data/sandbox.sqlite",
      portalUrl: "http://localhost:3000",
    });
  });

  it("take what the environment says", () => {
    const env = { SANDBOX_PORT: "4100", SANDBOX_DB: ":memory:", PORTAL_URL: "https://portal.example" };
    assert.deepEqual(sandboxSettings(env), { port: 4100, dbPath: ":memory:", portalUrl: "https://portal.example" });
  });

  it("refuse a wrong one, naming it", () => {
    assert.throws(() => sandboxSettings({ SANDBOX_PORT: "http" }), /^Error: SANDBOX_PORT: /);
    assert.throws(() => sandboxSettings({ PORTAL_URL: "ftp://x" }), /^Error: PORTAL_URL: /);
  });
});

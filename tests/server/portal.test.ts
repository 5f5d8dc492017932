// server/portal.ts: the portal's own address (its start and stop are tested through tests/server/main.test.ts and
// tests/sandbox/launch.test.ts, in processes of their own).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadConfig } from "#server/config.ts";
import { publicUrlOf } from "#server/portal.ts";

const config = (env: NodeJS.ProcessEnv) => loadConfig({ NODE_ENV: "development", ...env }, () => {});

describe("the portal's address", () => {
  it("is PUBLIC_URL when set, without its trailing slash", () => {
    assert.equal(publicUrlOf(config({ PUBLIC_URL: "https://portal.example/" })), "https://portal.example");
  });

  it("is localhost on loopback and on every interface, else the host given", () => {
    assert.equal(publicUrlOf(config({ HOST: "127.0.0.1", PORT: "3000" })), "http://localhost:3000");
    assert.equal(publicUrlOf(config({ HOST: "0.0.0.0", PORT: "3001", SANDBOX: "true" })), "http://localhost:3001");
    assert.equal(
      publicUrlOf(config({ HOST: "10.0.0.5", PORT: "3000", UPSTREAM_URL: "http://u.example" })),
      "http://10.0.0.5:3000",
    );
  });
});

// server/main.ts, the portal alone: it runs in front of the upstream UPSTREAM_URL names, and without one it refuses,
// naming `npm start` (which starts the sandbox: sandbox/launch.ts).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { startFakeUpstream } from "#harness/fake-upstream.ts";
import { TEST_SESSION_KEY } from "#tests/support/portal.ts";
import { spawnSource } from "#tests/support/spawned.ts";

const env = { HOST: "127.0.0.1", PORT: "0", SESSION_KEY: TEST_SESSION_KEY, LOG_LEVEL: "info", NODE_ENV: "development" };

describe("the portal alone (server/main.ts)", () => {
  it("without UPSTREAM_URL stops with exit 1, naming it and `npm start`", async () => {
    const started = spawnSource("server/main.ts", env);
    assert.equal(await started.exited, 1);
    assert.match(started.output(), /UPSTREAM_URL is unset: .*`npm start` starts it on its embedded sandbox/);
  });

  it("in front of an upstream, answers and stops cleanly on SIGTERM", async () => {
    const upstream = await startFakeUpstream();
    try {
      const started = spawnSource("server/main.ts", { ...env, UPSTREAM_URL: upstream.url });
      const [, url] = await started.waitFor(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/);
      assert.equal((await fetch(`${url}/healthz`)).status, 200);
      assert.equal((await fetch(`${url}/sandbox/mail`, { redirect: "manual" })).status, 302, "no sandbox routes");
      assert.equal(await started.stop(), 0);
      assert.doesNotMatch(started.output(), /embedded sandbox|Mail {6}http/);
    } finally {
      await upstream.close();
    }
  });
});

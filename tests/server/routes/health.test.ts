// Operations: health and readiness, and two replicas with the same keys serving one user mid-session.
import assert from "node:assert/strict";
import type { ServerResponse } from "node:http";
import { after, before, describe, it } from "node:test";
import { sendJson } from "#scripts/fake-upstream.ts";
import { PortalClient } from "#scripts/portal-client.ts";
import { DEMO_PASSWORD, latestCode } from "#scripts/sign-in.ts";
import { type RunningPortal, startPortal } from "#tests/support/portal.ts";
import { portalOnFake } from "#tests/support/portal-on-fake.ts";

let first: RunningPortal;
let second: RunningPortal;
before(async () => {
  first = await startPortal();
  // The second replica shares the first one's upstream and its session keys, as replicas behind a load balancer do.
  second = await startPortal({ env: { UPSTREAM_URL: first.sandboxUrl } });
});
after(async () => {
  await second.close();
  await first.close();
});

describe("health", () => {
  it("/healthz says the process is alive", async () => {
    const answer = await fetch(`${first.url}/healthz`);
    assert.equal(answer.status, 200);
    assert.deepEqual(await answer.json(), { status: "ok" });
  });

  it("/readyz says the upstream answers and the keys are loaded", async () => {
    const answer = await fetch(`${first.url}/readyz`);
    assert.equal(answer.status, 200);
    assert.deepEqual(await answer.json(), { status: "ready", upstream: true, keys: true, stores: "memory" });
  });

  it("/readyz asks the upstream at most once in five seconds, however often it is asked, and never sets a cookie", async () => {
    const fake = await portalOnFake();
    try {
      const cookie = `__Host-portal-session=${fake.app.encodeSession({ flash: { error: "x" } })}`;
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => fake.app.inject({ url: "/readyz", headers: { cookie } })),
      );
      assert.ok(answers.every((answer) => answer.statusCode === 200));
      assert.ok(
        answers.every((answer) => answer.headers["set-cookie"] === undefined),
        "no Set-Cookie",
      );
      assert.equal(fake.upstream.callsTo(/^\/pdfs\//).length, 1, "one probe served twenty readiness checks");
    } finally {
      await fake.close();
    }
  });

  it("/readyz takes an upstream redirect for a fault, and does not follow it", async () => {
    const fake = await portalOnFake((call, response) => {
      if (call.path.startsWith("/elsewhere")) return sendJson(response, 200, {});
      response.writeHead(302, { location: "/elsewhere" }).end();
    });
    try {
      const answer = await fake.app.inject({ url: "/readyz" });
      assert.equal(answer.statusCode, 503);
      assert.equal(answer.json().upstream, false);
      assert.equal(fake.upstream.callsTo(/^\/elsewhere/).length, 0, "the redirect was not followed");
    } finally {
      await fake.close();
    }
  });

  it("/readyz waits 2 s at most for a hung upstream, whatever UPSTREAM_TIMEOUT_MS allows a call", async () => {
    const hung: ServerResponse[] = [];
    const fake = await portalOnFake((_call, response) => void hung.push(response), {
      env: { UPSTREAM_TIMEOUT_MS: "10000" },
    });
    try {
      const started = performance.now();
      const answer = await fake.app.inject({ url: "/readyz" });
      const elapsed = performance.now() - started;
      assert.equal(answer.statusCode, 503);
      assert.equal(answer.json().upstream, false);
      assert.ok(elapsed < 3_500, `answered after ${elapsed.toFixed(0)} ms`);
    } finally {
      for (const response of hung) response.destroy();
      await fake.close();
    }
  });

  it("/readyz answers 503 when the upstream is down", async () => {
    const orphan = await startPortal({ env: { UPSTREAM_URL: "http://127.0.0.1:9" } });
    try {
      const answer = await fetch(`${orphan.url}/readyz`);
      assert.equal(answer.status, 503);
      assert.equal(((await answer.json()) as { upstream: boolean }).upstream, false);
    } finally {
      await orphan.close();
    }
  });
});

describe("scaling out", () => {
  it("a user signed in on one replica carries on on another, mid-session", async () => {
    const onFirst = new PortalClient(first.url);
    await onFirst.post("/api/auth/client", { shortname: "ACME", username: "alice", password: DEMO_PASSWORD });
    // The MFA step continues on the second replica with the cookie the first one issued.
    const onSecond = new PortalClient(second.url);
    onSecond.cookies = new Map(onFirst.cookies);
    await onSecond.post("/api/web/client/mfa/generate");
    const code = await latestCode(first.sandboxUrl, "alice@acme.example");
    assert.deepEqual((await onSecond.post(`/api/web/client/mfa/validate/${code}`)).json(), [{ text: "Passed" }]);
    // And back on the first replica, signed in.
    onFirst.cookies = new Map(onSecond.cookies);
    const home = await onFirst.get("/client/home");
    assert.equal(home.status, 200);
    assert.match(home.text, /Signed in as\b[\s\S]{0,80}>alice</);
  });
});

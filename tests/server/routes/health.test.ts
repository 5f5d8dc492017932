// Operations: health and readiness, and two replicas with the same keys serving one user mid-session.
import assert from "node:assert/strict";
import type { ServerResponse } from "node:http";
import { after, before, describe, it } from "node:test";
import { sendJson, startFakeUpstream } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { RedisServer } from "#harness/redis-server.ts";
import { DEMO_PASSWORD, latestCode } from "#harness/sign-in.ts";
import { logCapture } from "#tests/support/log-capture.ts";
import { type PortalInProcess, type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";
import { portalOnFake } from "#tests/support/portal-on-fake.ts";
import { sessionCodec } from "#tests/support/session-codec.ts";
import { scaled } from "#tests/support/waiting.ts";

let first: RunningPortal;
describe("server/routes/health", () => {
  before(async () => {
    first = await startPortalInProcess();
  });
  after(() => first.close());

  describe("health", () => {
    it("/healthz says the process is alive", async () => {
      const answer = await new PortalClient(first.url).get("/healthz");
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.json(), { status: "ok" });
    });

    it("/readyz says the upstream answers and the keys are loaded", async () => {
      const answer = await new PortalClient(first.url).get("/readyz");
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.json(), { status: "ready", upstream: true, keys: true, stores: "memory" });
    });

    it("/readyz asks the upstream at most once in five seconds, however often it is asked, and never sets a cookie", async () => {
      const fake = await portalOnFake();
      try {
        const codec = await sessionCodec(fake.portal.config);
        const cookie = `__Host-portal-session=${codec.encode({ flash: { error: "x" } })}`;
        const answers = await Promise.all(
          Array.from({ length: 20 }, () => new PortalClient(fake.app).get("/readyz", { cookie })),
        );
        assert.ok(answers.every((answer) => answer.status === 200));
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
        const answer = await new PortalClient(fake.app).get("/readyz");
        assert.equal(answer.status, 200, "the replica stays ready");
        assert.equal(answer.json().upstream, false);
        assert.equal(fake.upstream.callsTo(/^\/elsewhere/).length, 0, "the redirect was not followed");
      } finally {
        await fake.close();
      }
    });

    it("/readyz answers within a second for a hung upstream, as the orchestrator's probe needs, and reports it down", async () => {
      const hung: ServerResponse[] = [];
      const fake = await portalOnFake((_call, response) => void hung.push(response), {
        env: { UPSTREAM_TIMEOUT_MS: "10000" },
      });
      try {
        const started = performance.now();
        const answer = await new PortalClient(fake.app).get("/readyz");
        const elapsed = performance.now() - started;
        assert.equal(answer.status, 200);
        assert.equal(answer.json().upstream, false);
        assert.ok(elapsed < scaled(1_000), `answered after ${elapsed.toFixed(0)} ms`);
        const again = performance.now();
        assert.equal((await new PortalClient(fake.app).get("/readyz")).status, 200);
        assert.ok(performance.now() - again < 1_000, "a probe still running holds back no later answer");
      } finally {
        for (const response of hung) response.destroy();
        await fake.close();
      }
    });

    it("/readyz answers within a second while Redis is frozen, ready, with Redis reported down", async () => {
      const redis = await RedisServer.start();
      const replica = await startPortalInProcess({ listen: false, env: { REDIS_URL: redis.url } });
      try {
        assert.equal((await new PortalClient(replica.app).get("/readyz")).json().redis, "up");
        redis.freeze();
        const started = performance.now();
        const answer = await new PortalClient(replica.app).get("/readyz");
        const elapsed = performance.now() - started;
        assert.equal(answer.status, 200);
        assert.equal(answer.json().redis, "down");
        assert.ok(elapsed < scaled(1_000), `answered after ${elapsed.toFixed(0)} ms`);
      } finally {
        redis.thaw();
        await replica.close();
        await redis.stop();
      }
    });

    it("/readyz stays 200 when the upstream is down: an upstream outage takes no replica out of the Service", async () => {
      const orphan = await startPortalInProcess({ upstreamUrl: "http://127.0.0.1:9" });
      try {
        const answer = await new PortalClient(orphan.url).get("/readyz");
        assert.equal(answer.status, 200);
        assert.deepEqual(answer.json(), { status: "ready", upstream: false, keys: true, stores: "memory" });
      } finally {
        await orphan.close();
      }
    });

    it("the upstream's state goes to /metrics and to one log line when it changes, never to readiness", async () => {
      let answers = false;
      const upstream = await startFakeUpstream((_call, response) => void response.writeHead(answers ? 200 : 500).end());
      const logs = logCapture("upstream-health");
      const env = { METRICS_TOKEN: "m".repeat(32) };
      let clock = Date.now();
      const { app, close } = await startPortalInProcess({
        upstreamUrl: upstream.url,
        env,
        listen: false,
        logs: logs.stream,
        now: () => clock,
      });
      const gauge = async () => {
        const metrics = await new PortalClient(app).get("/metrics", { authorization: `Bearer ${env.METRICS_TOKEN}` });
        return /^portal_upstream_up (\d)$/m.exec(metrics.text)?.[1];
      };
      const events = () =>
        logs.lines
          .map((line) => JSON.parse(line) as { event?: string })
          .filter((line) => String(line.event).startsWith("upstream-"))
          .map((line) => line.event);
      try {
        for (let probe = 0; probe < 3; probe++) assert.equal((await new PortalClient(app).get("/readyz")).status, 200);
        assert.equal(await gauge(), "0");
        answers = true;
        clock += 5_000;
        assert.equal((await new PortalClient(app).get("/readyz")).status, 200);
        assert.equal(await gauge(), "0", "one probe serves five seconds");
        clock += 1;
        for (let probe = 0; probe < 3; probe++) assert.equal((await new PortalClient(app).get("/readyz")).status, 200);
        assert.equal(await gauge(), "1");
        assert.deepEqual(events(), ["upstream-down", "upstream-up"]);
      } finally {
        await close();
        await upstream.close();
      }
    });
  });

  describe("scaling out", () => {
    let redis: RedisServer;
    let one: RunningPortal;
    let second: PortalInProcess;
    before(async () => {
      // Two replicas on one Redis (where the sessions' ledger is shared), the second with the first one's upstream and
      // session keys, as replicas behind a load balancer have.
      redis = await RedisServer.start();
      const env = { REDIS_URL: redis.url };
      one = await startPortalInProcess({ env });
      second = await startPortalInProcess({ upstreamUrl: one.sandboxUrl, env });
    });
    after(async () => {
      await second.close();
      await one.close();
      await redis.stop();
    });

    it("a user signed in on one replica carries on on another, mid-session", async () => {
      const onFirst = new PortalClient(one.url);
      await onFirst.post("/api/auth/client", { shortname: "ACME", username: "alice", password: DEMO_PASSWORD });
      // The MFA step continues on the second replica with the cookie the first one issued.
      const onSecond = new PortalClient(second.url);
      onSecond.cookies = new Map(onFirst.cookies);
      await onSecond.post("/api/web/client/mfa/generate");
      const code = await latestCode(one.sandboxUrl, "alice@acme.example");
      assert.deepEqual((await onSecond.post(`/api/web/client/mfa/validate/${code}`)).json(), [{ text: "Passed" }]);
      // And back on the first replica, signed in.
      onFirst.cookies = new Map(onSecond.cookies);
      const home = await onFirst.get("/client/home");
      assert.equal(home.status, 200);
      assert.match(home.text, /Signed in as\b[\s\S]{0,80}>alice</);
    });
  });
});

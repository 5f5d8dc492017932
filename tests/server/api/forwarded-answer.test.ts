// server/api/forwarded-answer.ts: an /api call whose upstream hangs, fails, answers garbage or is down gets section
// 8's message in bounded time, with nothing of the upstream's, sent once and never retried (SECURITY.md item 14); an
// answer is read as requirements 7.1 reads it: JSON whatever its label, and an empty one is no body, never a fault;
// a run of faults is logged when it starts and when it ends.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { downUpstreamUrl, happyUpstream, startFakeUpstream } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { assertShown, assertStillServing, failingAnswers, TIMEOUT_MS, timed } from "#tests/support/failing-upstream.ts";
import { logCapture } from "#tests/support/log-capture.ts";
import { startPortalInProcess } from "#tests/support/portal.ts";
import { type PortalOnFake, portalOnFake } from "#tests/support/portal-on-fake.ts";
import { errorTexts } from "#web/texts/errors.ts";

let fake: PortalOnFake;
before(async () => {
  fake = await portalOnFake(undefined, { env: { UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS) } });
});
after(() => fake.close());

describe("a forwarded call meeting a failing upstream", () => {
  it("14. faults: a POST meeting a hung, failing or garbled upstream gives section 8's message in bounded time, no stack trace, exactly one upstream call, and the portal keeps serving", async () => {
    const expected: Record<string, string> = {
      "hung past the timeout": errorTexts.actionFailed,
      "a 500 with a stack trace": errorTexts.internalServerError,
      "a 500 error page in HTML": errorTexts.internalServerError,
      "a 502 from its gateway": errorTexts.actionFailed,
      "a 503 with no body": errorTexts.actionFailed,
      "a 200 that is not JSON": errorTexts.actionFailed,
      "a 200 JSON cut short": errorTexts.actionFailed,
      "a body truncated mid-stream": errorTexts.actionFailed,
      "a connection reset": errorTexts.actionFailed,
    };
    for (const [what, answer] of Object.entries(failingAnswers)) {
      fake.upstream.answer = answer;
      fake.upstream.calls.length = 0;
      const visitor = new PortalClient(fake.app);
      const { answer: login, elapsed } = await timed(() =>
        visitor.post("/api/auth/client", { shortname: "ACME", username: "alice", password: "pw" }),
      );
      assertShown(login, elapsed, expected[what] ?? "", what);
      assert.equal(fake.upstream.calls.length, 1, `${what}: the POST was sent once, never retried`);
      assert.equal((await visitor.get("/mfa")).headers.location, "/", `${what}: no token is held`);
      await assertStillServing(fake);
    }
  });

  it("14. faults: an upstream that is down (closed port) gives Action Failed at once and the portal keeps serving", async () => {
    const portal = await startPortalInProcess({
      env: { UPSTREAM_URL: await downUpstreamUrl(), UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS) },
      listen: false,
    });
    try {
      for (const [path, body] of [
        ["/api/auth/client", { shortname: "ACME", username: "alice", password: "pw" }],
        ["/api/auth/vendor-token?uuid=abc", undefined],
        ["/api/web/reset-pwd", { clientShortName: "", emailAddress: "a@b.example" }],
      ] as const) {
        const { answer, elapsed } = await timed(() => new PortalClient(portal.app).post(path, body));
        assertShown(answer, elapsed, errorTexts.actionFailed, `down: ${path}`);
      }
      assert.equal((await new PortalClient(portal.app).get("/")).status, 200);
      const ready = await new PortalClient(portal.app).get("/readyz");
      assert.deepEqual([ready.status, ready.json().upstream], [200, false], "ready, and reports the upstream down");
    } finally {
      await portal.close();
    }
  });
});

describe("an answer read as requirements 7.1 reads it", () => {
  const login = { shortname: "ACME", username: "alice", password: "pw" };
  const pending = async () => {
    fake.upstream.answer = happyUpstream();
    const client = new PortalClient(fake.app);
    await client.post("/api/auth/client", login);
    return client;
  };

  it("a code generated with an empty 204 is a sent code (requirements 4.2: an OK answer), not a fault", async () => {
    const client = await pending();
    fake.upstream.answer = (_call, response) => void response.writeHead(204).end();
    const answer = await client.post("/api/web/client/mfa/generate");
    assert.deepEqual([answer.status, answer.json()], [200, {}]);
    assert.equal((await client.get("/client/home")).headers.location, "/mfa", "the sign-in goes on");
  });

  it("a verdict labelled text/plain, or not labelled, is parsed as JSON and passes", async () => {
    for (const type of ["text/plain", undefined]) {
      const client = await pending();
      fake.upstream.answer = (_call, response) =>
        void response.writeHead(200, type ? { "content-type": type } : {}).end('[{"text":"Passed"}]');
      const answer = await client.post("/api/web/client/mfa/validate/123456");
      assert.deepEqual(answer.json(), [{ text: "Passed" }], `${type}`);
      fake.upstream.answer = happyUpstream();
      assert.equal((await client.get("/client/home")).status, 200, `${type}: signed in`);
    }
  });

  it("a verdict that is not JSON is a fault, whatever its label, and an empty one passes no code", async () => {
    const client = await pending();
    fake.upstream.answer = (_call, response) =>
      void response.writeHead(200, { "content-type": "text/plain" }).end("Passed");
    assert.equal((await client.post("/api/web/client/mfa/validate/123456")).status, 502);
    fake.upstream.answer = (_call, response) => void response.writeHead(200).end();
    const empty = await client.post("/api/web/client/mfa/validate/123456");
    assert.equal(empty.json()[0]?.text, "Failed", "no verdict: the code did not pass");
    assert.equal((await client.get("/client/home")).headers.location, "/mfa", "still waiting for its code");
  });
});

describe("a run of upstream faults on sign-in", () => {
  it("is logged when it starts and when sign-ins are answered again, not once per attempt", async () => {
    let broken = true;
    const happy = happyUpstream();
    const upstream = await startFakeUpstream((call, response) =>
      broken ? failingAnswers["a 200 that is not JSON"]?.(call, response) : happy(call, response),
    );
    const logs = logCapture("sign-in-faults");
    const token = "metrics-token-for-the-tests-0123";
    const portal = await startPortalInProcess({
      env: { UPSTREAM_URL: upstream.url, METRICS_TOKEN: token },
      listen: false,
      logs: logs.stream,
    });
    try {
      const attempt = (user: string) =>
        new PortalClient(portal.app).post("/api/auth/client", { shortname: "ACME", username: user, password: "pw" });
      for (let index = 0; index < 30; index++) assert.equal((await attempt(`user-${index}`)).status, 502);
      broken = false;
      assert.equal((await attempt("alice")).status, 200);
      const lines = logs.lines.map((line) => JSON.parse(line) as { level: number; msg: string; failed?: number });
      assert.deepEqual(
        lines.filter((line) => line.msg.startsWith("upstream")).map(({ level, msg, failed }) => [level, msg, failed]),
        [
          [40, "upstream fault", undefined],
          [30, "upstream answers again", 30],
        ],
      );
      const metrics = await portal.app.inject({ url: "/metrics", headers: { authorization: `Bearer ${token}` } });
      assert.match(metrics.body, /portal_upstream_errors_total\{[^}]*outcome="not-json"[^}]*\} 30/);
    } finally {
      await portal.close();
      await upstream.close();
    }
  });
});

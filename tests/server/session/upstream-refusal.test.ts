// server/session/upstream-refusal.ts: a 401 to one of the server's own calls marks the call's token refused, and
// anything else leaves it alone; a refused token's session ends, a token issued again at a new sign-in is forgiven, and
// a storm of 401s to forwarded calls is one clean expiry (requirements 4.5).
import assert from "node:assert/strict";
import { describe, it, test } from "node:test";
import { happyUpstream, sendJson, startFakeUpstream } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { Metrics } from "#server/plugins/metrics.ts";
import { UpstreamRefusals } from "#server/session/upstream-refusal.ts";
import { bearer, createUpstreamClient } from "#server/upstream/client.ts";
import { assertStillServing, BOUND_MS, TIMEOUT_MS } from "#tests/support/failing-upstream.ts";
import { portalsOnFakeForFile } from "#tests/support/portal-on-fake.ts";
import { errorTexts } from "#web/texts/errors.ts";

async function upstreamAnswering(status: number) {
  const upstream = await startFakeUpstream((_call, response) => sendJson(response, status, {}));
  const refused = new UpstreamRefusals(60_000, Date.now);
  const client = createUpstreamClient({
    baseUrl: upstream.url,
    timeoutMs: 2000,
    metrics: new Metrics(),
    operationOf: () => "getUserInfo",
  });
  client.use(refused.middleware);
  const call = (headers: Record<string, string>) =>
    client.GET("/web/{site}/user-info", { params: { path: { site: "client" } }, headers });
  return { refused, call, close: () => upstream.close() };
}

test("a 401 to a call made with a token marks that token refused", async () => {
  const upstream = await upstreamAnswering(401);
  try {
    await upstream.call(bearer("token-a"));
    assert.equal(upstream.refused.has("token-a"), true);
    assert.equal(upstream.refused.has("token-b"), false);
  } finally {
    await upstream.close();
  }
});

test("other answers, and a 401 to a call without a token, refuse nothing", async () => {
  for (const status of [200, 403, 500]) {
    const upstream = await upstreamAnswering(status);
    try {
      await upstream.call(bearer("token-a"));
      assert.equal(upstream.refused.has("token-a"), false, `after a ${status}`);
    } finally {
      await upstream.close();
    }
  }
  const upstream = await upstreamAnswering(401);
  try {
    const { response } = await upstream.call({});
    assert.equal(response.status, 401);
    assert.equal(upstream.refused.has(""), false);
  } finally {
    await upstream.close();
  }
});

/** A portal on a fake upstream, closed after the file's tests. */
const onFake = portalsOnFakeForFile();

describe("a refused token in the portal", () => {
  it("a refused token ends its session, and a later sign-in the upstream issues the same token opens normally", async () => {
    let refuse = true;
    const happy = happyUpstream();
    const { app, code } = await onFake((call, response) => {
      if (refuse && call.method === "GET" && call.path.includes("/user-info")) return sendJson(response, 401, {});
      return happy(call, response);
    });
    const first = new PortalClient(app);
    await first.post("/api/auth/client", { shortname: "ACME", username: "alice", password: "pw" });
    await first.post("/api/web/client/mfa/generate");
    await first.post(`/api/web/client/mfa/validate/${await code(accounts.alice)}`);
    const page = await first.get("/client/home");
    assert.equal(page.status, 302, "the refused session ends");
    refuse = false;
    const again = await signIn(app, accounts.alice, code);
    assert.equal((await again.get("/client/home")).status, 200, "the token issued again is not still refused");
  });

  it("14. faults: a storm of parallel 401s is one clean expiry: every call 401, the session ends once, later calls never reach the upstream", async () => {
    const fake = await onFake(happyUpstream(), { env: { UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS) } });
    const visitor = await signIn(fake.app, accounts.alice, fake.code);
    const copy = () => {
      const tab = new PortalClient(fake.app);
      for (const [name, value] of visitor.cookies) tab.cookies.set(name, value);
      return tab;
    };
    fake.upstream.answer = (_call, response) =>
      void setTimeout(() => sendJson(response, 401, { detail: "Unauthorized" }), 30);
    fake.upstream.calls.length = 0;
    const tabs = Array.from({ length: 20 }, copy);
    const started = performance.now();
    const answers = await Promise.all(
      tabs.map((tab) => tab.post("/api/web/client/password/test", { userId: "alice", password: "pw" })),
    );
    assert.ok(performance.now() - started < BOUND_MS * 2, "the storm was answered in bounded time");
    for (const answer of answers) {
      assert.equal(answer.status, 401);
      assert.deepEqual(answer.json(), { detail: errorTexts.sessionExpired });
    }
    assert.ok(fake.upstream.calls.length <= 20, "one upstream call per browser call at most, never retried");
    const inFlight = fake.upstream.calls.length;
    for (const late of [copy(), copy()]) {
      assert.equal((await late.post("/api/web/client/password/test", { userId: "alice", password: "pw" })).status, 401);
      assert.equal((await late.get("/client/home")).headers.location, "/?return=%2Fclient%2Fhome");
    }
    assert.equal(fake.upstream.calls.length, inFlight, "an old copy of the cookie reaches the upstream no more");
    const browser = tabs.at(-1) ?? visitor;
    const login = await browser.get("/");
    assert.match(login.text, new RegExp(errorTexts.sessionExpired), "the login page says the session expired");
    assert.doesNotMatch((await browser.get("/")).text, new RegExp(errorTexts.sessionExpired), "and not again");
    await assertStillServing(fake);
  });
});

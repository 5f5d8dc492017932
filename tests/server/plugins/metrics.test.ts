// One portal process's metrics: each app its own registry; an upstream call counted by its outcome, and as an error
// only when it is a 5xx or a fault; the upstream's and Redis's state reported only once known. And the /metrics route,
// for the bearer of METRICS_TOKEN only: requests by route pattern (never the raw path), as Prometheus reads them.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { Metrics } from "#server/plugins/metrics.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";
import { until } from "#tests/support/waiting.ts";

/** The value of one sample line of the exposition text, or undefined when the series is absent. */
async function sample(
  metrics: Metrics,
  name: string,
  labels: Record<string, string> = {},
): Promise<number | undefined> {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = (await metrics.registry.metrics())
    .split("\n")
    .find((row) => (row.startsWith(`${name}{`) || row.startsWith(`${name} `)) && wanted.every((l) => row.includes(l)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

describe("the portal's metrics", () => {
  it("count an upstream call by its status class, or by the fault that took its place", async () => {
    const metrics = new Metrics();
    metrics.upstreamCall("loginClient", 200, 0.01);
    metrics.upstreamCall("loginClient", 204, 0.01);
    metrics.upstreamCall("loginClient", 401, 0.01);
    metrics.upstreamCall("loginClient", 503, 0.01);
    metrics.upstreamCall("loginClient", "timeout", 10);
    const count = "portal_upstream_call_duration_seconds_count";
    assert.equal(await sample(metrics, count, { operation: "loginClient", outcome: "2xx" }), 2);
    assert.equal(await sample(metrics, count, { operation: "loginClient", outcome: "4xx" }), 1);
    assert.equal(await sample(metrics, count, { operation: "loginClient", outcome: "5xx" }), 1);
    assert.equal(await sample(metrics, count, { operation: "loginClient", outcome: "timeout" }), 1);
  });

  it("count as errors only 5xx answers and faults: a refusal is the upstream doing its job", async () => {
    const metrics = new Metrics();
    for (const result of [200, 400, 401, 404, 429]) metrics.upstreamCall("getUserInfo", result, 0.01);
    assert.equal(await sample(metrics, "portal_upstream_errors_total", { operation: "getUserInfo" }), undefined);
    metrics.upstreamCall("getUserInfo", 502, 0.01);
    metrics.upstreamCall("getUserInfo", "unreachable", 0.01);
    const errors = "portal_upstream_errors_total";
    assert.equal(await sample(metrics, errors, { operation: "getUserInfo", outcome: "5xx" }), 1);
    assert.equal(await sample(metrics, errors, { operation: "getUserInfo", outcome: "unreachable" }), 1);
  });

  it("count page visits by state, several at once when a stop drops them together", async () => {
    const metrics = new Metrics();
    metrics.visit("queued");
    metrics.visit("queued");
    metrics.visit("dropped", 40);
    assert.equal(await sample(metrics, "portal_tracked_visits_total", { state: "queued" }), 2);
    assert.equal(await sample(metrics, "portal_tracked_visits_total", { state: "dropped" }), 40);
  });

  it("report the upstream and Redis only once their state is known, then as 1 or 0", async () => {
    const metrics = new Metrics();
    assert.equal(await sample(metrics, "portal_upstream_up"), undefined, "before the first readiness probe");
    assert.equal(await sample(metrics, "portal_redis_up"), undefined, "a portal without REDIS_URL has no Redis");
    metrics.upstreamState(false);
    metrics.redisState(true);
    assert.equal(await sample(metrics, "portal_upstream_up"), 0);
    assert.equal(await sample(metrics, "portal_redis_up"), 1);
    metrics.upstreamState(true);
    assert.equal(await sample(metrics, "portal_upstream_up"), 1);
  });

  it("keep each app's figures apart, so that many apps can run in one process", async () => {
    const first = new Metrics();
    const second = new Metrics();
    first.visit("sent");
    assert.equal(await sample(first, "portal_tracked_visits_total", { state: "sent" }), 1);
    assert.equal(await sample(second, "portal_tracked_visits_total", { state: "sent" }), undefined);
    assert.match(await second.registry.metrics(), /^portal_process_resident_memory_bytes \d+/m);
  });
});

const METRICS_TOKEN = "metrics-token-for-the-tests-0123";

/** Without the islands' header, as a scraper or a followed link asks. */
const bare = (app: RunningPortal["app"]) => new PortalClient(app, { islandsHeader: false });

const scrape = async (portal: RunningPortal, authorization?: string) =>
  bare(portal.app).get("/metrics", authorization ? { authorization } : {});

/** The value of one sample line of the exposition text, or undefined when the series is absent. */
function sampleOf(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text
    .split("\n")
    .find((row) => row.startsWith(`${name}{`) && wanted.every((label) => row.includes(label)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

describe("/metrics", () => {
  let portal: RunningPortal;
  before(async () => {
    portal = await startPortalInProcess({ listen: false, env: { METRICS_TOKEN } });
  });
  after(() => portal.close());

  it("answers 401 without the token and with a wrong one, and nothing of the metrics leaks", async () => {
    for (const authorization of [undefined, "Bearer wrong-token", `Basic ${METRICS_TOKEN}`]) {
      const answer = await scrape(portal, authorization);
      assert.equal(answer.status, 401, String(authorization));
      assert.ok(!answer.text.includes("portal_"), answer.text);
    }
  });

  it("counts requests by route pattern, sign-in outcomes, upstream calls and tracked visits", async () => {
    const alice = await signIn(portal.app, accounts.alice, portal.code);
    assert.equal((await alice.get("/client/home")).status, 200);
    assert.equal((await alice.get("/client/inbox")).status, 200);
    const stranger = new PortalClient(portal.app);
    await stranger.post("/api/auth/client", { shortname: "ACME", username: "alice", password: "Wrong-Password-1!" });
    // Visits are sent after their answers: scraped once both went out.
    const visitsSent = async () =>
      sampleOf((await scrape(portal, `Bearer ${METRICS_TOKEN}`)).text, "portal_tracked_visits_total", {
        state: "sent",
      });
    await until(async () => (await visitsSent()) === 2, 5_000, "both visits sent");

    const answer = await scrape(portal, `Bearer ${METRICS_TOKEN}`);
    assert.equal(answer.status, 200);
    assert.match(String(answer.headers["content-type"]), /^text\/plain/);
    const text = answer.text;
    const count = "portal_http_request_duration_seconds_count";
    assert.equal(sampleOf(text, count, { method: "GET", route: "/client/inbox", status: "200" }), 1);
    assert.ok((sampleOf(text, count, { method: "POST", route: "/api/auth/client", status: "200" }) ?? 0) >= 1);
    assert.equal(sampleOf(text, "portal_sign_in_outcomes_total", { event: "sign-in", outcome: "pending-mfa" }), 1);
    assert.equal(sampleOf(text, "portal_sign_in_outcomes_total", { event: "mfa", outcome: "passed" }), 1);
    assert.equal(sampleOf(text, "portal_sign_in_outcomes_total", { event: "sign-in", outcome: "invalid" }), 1);
    const upstreamCount = "portal_upstream_call_duration_seconds_count";
    assert.equal(sampleOf(text, upstreamCount, { operation: "getUserInfo", outcome: "2xx" }), 1);
    assert.equal(sampleOf(text, upstreamCount, { operation: "loginClient", outcome: "2xx" }), 2);
    assert.equal(sampleOf(text, "portal_tracked_visits_total", { state: "queued" }), 2);
    assert.equal(sampleOf(text, "portal_tracked_visits_total", { state: "sent" }), 2);
    assert.match(text, /^portal_process_resident_memory_bytes \d+/m);
  });

  it("labels an unknown path by its pattern, never by the raw path (bounded series)", async () => {
    await bare(portal.app).get("/no/such/page-12345");
    const text = (await scrape(portal, `Bearer ${METRICS_TOKEN}`)).text;
    assert.ok(!text.includes("page-12345"));
    assert.ok((sampleOf(text, "portal_http_request_duration_seconds_count", { route: "(other page)" }) ?? 0) >= 1);
  });

  it("counts upstream faults as errors by operation", async () => {
    const down = await startPortalInProcess({
      listen: false,
      upstreamUrl: "http://127.0.0.1:9",
      env: { METRICS_TOKEN },
    });
    try {
      await new PortalClient(down.app).post("/api/auth/vendor", { username: "vera", password: "Whatever-1!" });
      const text = (await bare(down.app).get("/metrics", { authorization: `Bearer ${METRICS_TOKEN}` })).text;
      assert.equal(
        sampleOf(text, "portal_upstream_errors_total", { operation: "loginVendor", outcome: "unreachable" }),
        1,
      );
    } finally {
      await down.close();
    }
  });

  it("is not served at all when METRICS_TOKEN is unset", async () => {
    const plain = await startPortalInProcess({ listen: false });
    try {
      const answer = await bare(plain.app).get("/metrics", { authorization: `Bearer ${METRICS_TOKEN}` });
      assert.notEqual(answer.status, 200);
      assert.ok(!answer.text.includes("portal_http"));
    } finally {
      await plain.close();
    }
  });
});

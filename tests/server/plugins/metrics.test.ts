// One portal process's metrics: each app its own registry; an upstream call counted by its outcome, and as an error
// only when it is a 5xx or a fault; the upstream's and Redis's state reported only once known.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Metrics } from "#server/plugins/metrics.ts";

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

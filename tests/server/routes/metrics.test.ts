// The /metrics route, for the bearer of METRICS_TOKEN only: requests by route pattern (never the raw path), upstream
// calls and their errors, sign-in outcomes and tracked visits, as Prometheus reads them.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";

const METRICS_TOKEN = "metrics-token-for-the-tests-0123";

let portal: RunningPortal;

before(async () => {
  portal = await startPortalInProcess({ listen: false, env: { METRICS_TOKEN } });
});
after(() => portal.close());

/** Without the islands' header, as a scraper or a followed link asks. */
const bare = (app: RunningPortal["app"]) => new PortalClient(app, { islandsHeader: false });

const scrape = async (authorization?: string) =>
  bare(portal.app).get("/metrics", authorization ? { authorization } : {});

/** The value of one sample line of the exposition text, or undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text
    .split("\n")
    .find((row) => row.startsWith(`${name}{`) && wanted.every((label) => row.includes(label)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

describe("/metrics", () => {
  it("answers 401 without the token and with a wrong one, and nothing of the metrics leaks", async () => {
    for (const authorization of [undefined, "Bearer wrong-token", `Basic ${METRICS_TOKEN}`]) {
      const answer = await scrape(authorization);
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
    await sleep(200); // visits are sent after their answers

    const answer = await scrape(`Bearer ${METRICS_TOKEN}`);
    assert.equal(answer.status, 200);
    assert.match(String(answer.headers["content-type"]), /^text\/plain/);
    const text = answer.text;
    const count = "portal_http_request_duration_seconds_count";
    assert.equal(sample(text, count, { method: "GET", route: "/client/inbox", status: "200" }), 1);
    assert.ok((sample(text, count, { method: "POST", route: "/api/auth/client", status: "200" }) ?? 0) >= 1);
    assert.equal(sample(text, "portal_sign_in_outcomes_total", { event: "sign-in", outcome: "pending-mfa" }), 1);
    assert.equal(sample(text, "portal_sign_in_outcomes_total", { event: "mfa", outcome: "passed" }), 1);
    assert.equal(sample(text, "portal_sign_in_outcomes_total", { event: "sign-in", outcome: "invalid" }), 1);
    const upstreamCount = "portal_upstream_call_duration_seconds_count";
    assert.equal(sample(text, upstreamCount, { operation: "getUserInfo", outcome: "2xx" }), 1);
    assert.equal(sample(text, upstreamCount, { operation: "loginClient", outcome: "2xx" }), 2);
    assert.equal(sample(text, "portal_tracked_visits_total", { state: "queued" }), 2);
    assert.equal(sample(text, "portal_tracked_visits_total", { state: "sent" }), 2);
    assert.match(text, /^portal_process_resident_memory_bytes \d+/m);
  });

  it("labels an unknown path by its pattern, never by the raw path (bounded series)", async () => {
    await bare(portal.app).get("/no/such/page-12345");
    const text = (await scrape(`Bearer ${METRICS_TOKEN}`)).text;
    assert.ok(!text.includes("page-12345"));
    assert.ok((sample(text, "portal_http_request_duration_seconds_count", { route: "(other page)" }) ?? 0) >= 1);
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
        sample(text, "portal_upstream_errors_total", { operation: "loginVendor", outcome: "unreachable" }),
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

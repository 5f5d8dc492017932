// server/upstream/tracking.ts sends page visits (requirements 4.8) off the response path. Its tests: a failing or
// refused track call never breaks a page, and a 401 ends its session at the next request and nothing
// more is sent for it; the queue is bounded per session and in all; an outage is logged by its start and its end;
// nothing is lost when the app closes, within the shutdown's deadline. Which page views are visits is
// server/loaders/visits.ts's, tested beside it.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import pino from "pino";
import { type FakeUpstream, forwardTo, startFakeUpstream } from "#harness/fake-upstream.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { Metrics } from "#server/plugins/metrics.ts";
import { createUpstreamClient } from "#server/upstream/client.ts";
import {
  MAX_QUEUED_VISITS,
  MAX_QUEUED_VISITS_PER_SESSION,
  type Visit,
  VisitTracker,
} from "#server/upstream/tracking.ts";
import { type RunningPortal, sandboxPost, startPortalInProcess, visitsOf } from "#tests/support/portal.ts";
import { scaled, until } from "#tests/support/waiting.ts";

/** How long the portal waits for an upstream call, here for a track call that never answers. */
const UPSTREAM_TIMEOUT_MS = scaled(800);

/** The portal, with its upstream behind a proxy whose track call can be made to misbehave. */
let portal: RunningPortal;
let upstream: FakeUpstream;

describe("server/upstream/tracking", () => {
  before(async () => {
    upstream = await startFakeUpstream();
    portal = await startPortalInProcess({
      listen: false,
      env: { UPSTREAM_URL: upstream.url, UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS) },
    });
    upstream.answer = forwardTo(portal.sandboxUrl);
  });
  after(async () => {
    await portal.close();
    await upstream.close();
  });

  describe("a failing track call", () => {
    for (const [name, fault] of [
      ["answers 500", { kind: "status", status: 500 }],
      ["answers 403", { kind: "status", status: 403 }],
      ["drops the connection", { kind: "drop" }],
      ["never answers (the portal gives up after its upstream timeout)", { kind: "hang" }],
    ] as const) {
      it(`does not fail the page or end the session when it ${name}`, async () => {
        const gary = await signIn(portal.app, accounts.gary, portal.code);
        upstream.faults.track = fault;
        const received = upstream.watched.track.received;
        const first = await gary.get("/client/vip/dashboard");
        assert.equal(first.status, 200);
        await until(() => upstream.watched.track.received > received, 5_000, "the track call");
        await sleep(fault.kind === "hang" ? UPSTREAM_TIMEOUT_MS + 100 : 50);
        const next = await gary.get("/client/vip/profile");
        assert.equal(next.status, 200, "the session goes on");
        delete upstream.faults.track;
      });
    }

    it("never delays the page's answer: a track call that takes 1.5 s leaves the page as fast as ever", async () => {
      const gary = await signIn(portal.app, accounts.gary, portal.code);
      upstream.faults.track = { kind: "slow", delayMs: scaled(1_500) };
      const started = performance.now();
      const answer = await gary.get("/client/vip/templates");
      const elapsed = performance.now() - started;
      assert.equal(answer.status, 200);
      assert.ok(elapsed < scaled(500), `answered in ${Math.round(elapsed)} ms`);
      delete upstream.faults.track;
    });
  });

  describe("a 401 on tracking", () => {
    it("expires the session at the next request: / then shows 'Your session has expired. Please Login again'", async () => {
      delete upstream.faults.track;
      const vera = await signIn(portal.app, accounts.vera, portal.code);
      assert.equal((await vera.get("/vendor/home")).status, 200);
      await sandboxPost(portal.sandboxUrl, "/sandbox/tokens/revoke", { site: "vendor", username: "vera" });
      const answered = upstream.watched.track.answered;
      // Permissions are cached, so this page still renders; its track call is the one that meets the 401.
      assert.equal((await vera.get("/vendor/inbox")).status, 200);
      await until(() => upstream.watched.track.answered > answered, 5_000, "the refused track call");
      await sleep(50);
      const next = await vera.get("/vendor/contact-us");
      assert.deepEqual([next.status, next.headers.location], [302, "/?return=%2Fvendor%2Fcontact-us"]);
      const login = await vera.get("/");
      assert.equal(login.status, 200);
      assert.ok(login.text.includes("Your session has expired. Please Login again"));
      assert.equal((await vera.get("/vendor/home")).headers.location, "/?return=%2Fvendor%2Fhome", "it stays ended");
    });
  });

  describe("a session whose token the upstream refused, in the tracker", () => {
    it("ends once, sends nothing more, and is no outage; another session's visits go on, even with the same token", async () => {
      const { setting, upstream, lines, tracker, visits, close } = await trackerOn({ status: 401 });
      try {
        let ended = 0;
        const refused = () => void ended++;
        for (const page of ["/client/home", "/client/inbox", "/client/support"])
          tracker.enqueue({ token: "token-a", page, session: "refused", refused });
        await tracker.flush();
        const sent = () => upstream.calls.length;
        assert.equal(sent(), 1, "the visits after the refusal are not sent");
        assert.equal(ended, 1, "its session is ended once");
        assert.equal(await visits("failed"), 3);
        setting.answer = { status: 200 };
        tracker.enqueue({ token: "token-a", page: "/client/users", session: "refused", refused });
        await tracker.flush();
        assert.deepEqual([sent(), ended], [1, 1], "a later visit of the ended session is not even queued");
        // A new sign-in the upstream issued the same token again is a session of its own.
        tracker.enqueue({ token: "token-a", page: "/client/home", session: "signed-in-again" });
        tracker.enqueue({ token: "token-b", page: "/client/home", session: "alice" });
        await tracker.flush();
        assert.equal(sent(), 3);
        assert.equal(await visits("sent"), 2);
        assert.deepEqual(
          lines.filter((line) => line.msg.startsWith("page tracking")),
          [],
          "a refused token is its session's end, not the upstream failing",
        );
      } finally {
        await close();
      }
    });
  });

  describe("closing the app", () => {
    it("sends every queued record before it finishes, even slow ones", async () => {
      const closing = await startPortalInProcess({ listen: false, env: { UPSTREAM_URL: upstream.url } });
      const previous = upstream.answer;
      upstream.answer = forwardTo(closing.sandboxUrl);
      try {
        const alice = await signIn(closing.app, accounts.alice, closing.code);
        upstream.faults.track = { kind: "slow", delayMs: 300 };
        for (const path of ["/client/home", "/client/inbox", "/client/support"]) await alice.get(path);
        await closing.app.close();
        assert.deepEqual(await visitsOf(closing.sandboxUrl, "alice"), [
          "/client/home",
          "/client/inbox",
          "/client/support",
        ]);
      } finally {
        delete upstream.faults.track;
        upstream.answer = previous;
        await closing.close();
      }
    });
  });

  describe("one session viewing pages faster than the upstream records them", () => {
    it(`keeps at most ${MAX_QUEUED_VISITS_PER_SESSION} of its visits waiting: its newest are dropped (logged once), never another session's`, async () => {
      const { upstream, lines, tracker, visits, close } = await trackerOn({ status: 200 });
      try {
        for (let page = 0; page < MAX_QUEUED_VISITS_PER_SESSION + 50; page++)
          tracker.enqueue({ token: "script", page: `/client/page-${page}`, session: "script" });
        for (const page of ["/client/home", "/client/inbox"])
          tracker.enqueue({ token: "alice", page, session: "alice" });
        await tracker.flush();
        const count = (token: string) =>
          upstream.calls.filter((call) => call.headers.authorization === `Bearer ${token}`).length;
        assert.equal(count("script"), MAX_QUEUED_VISITS_PER_SESSION);
        assert.equal(count("alice"), 2);
        assert.equal(await visits("dropped"), 50);
        assert.equal(lines.filter((line) => line.msg.includes("faster than they are recorded")).length, 1);
      } finally {
        await close();
      }
    });
  });

  /** A visit of the session named as its token, with that token. */
  const visitOf = (token: string, page: string): Visit => ({ token, page, session: token });

  /** A tracker on its own fake upstream, whose answer to each visit the test sets; the tracker's log lines are kept. */
  async function trackerOn(answer: { status: number } | "hang") {
    const setting = { answer };
    const upstream = await startFakeUpstream((_call, response) => {
      if (setting.answer === "hang") return;
      response.writeHead(setting.answer.status, { "content-type": "application/json" }).end("{}");
    });
    const lines: Array<{ level: number; msg: string } & Record<string, unknown>> = [];
    const log = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const metrics = new Metrics();
    const client = createUpstreamClient({
      baseUrl: upstream.url,
      timeoutMs: 5_000,
      metrics,
      operationOf: () => "trackPage",
    });
    const tracker = new VisitTracker(client, metrics, log);
    const visits = async (state: string) =>
      (await metrics.visits.get()).values.find((value) => value.labels.state === state)?.value ?? 0;
    return { setting, upstream, lines, tracker, visits, close: () => upstream.close() };
  }

  describe("an upstream that fails every visit", () => {
    for (const status of [500, 403]) {
      it(`answering ${status}: one line when the failures start, one with their count when they stop, none between`, async () => {
        const { setting, lines, tracker, visits, close } = await trackerOn({ status });
        try {
          for (let visitor = 0; visitor < 40; visitor++) tracker.enqueue(visitOf(`t${visitor}`, "/client/home"));
          await tracker.flush();
          assert.equal(await visits("failed"), 40, "each failure is counted in /metrics");
          setting.answer = { status: 200 };
          for (let visitor = 0; visitor < 5; visitor++) tracker.enqueue(visitOf(`t${visitor}`, "/client/inbox"));
          await tracker.flush();
          assert.deepEqual(
            lines.map((line) => [line.level, line.msg.split(":")[0], line.failed]),
            [
              [40, "page tracking failing", undefined],
              [30, "page tracking recovered", 40],
            ],
          );
        } finally {
          close();
        }
      });
    }
  });

  describe("a full queue", () => {
    it("drops the oldest visits, each counted, and says so in one line, not one per visit", async () => {
      const { lines, tracker, visits, close } = await trackerOn("hang");
      try {
        const over = 250;
        const visitors = Math.ceil((MAX_QUEUED_VISITS + over) / MAX_QUEUED_VISITS_PER_SESSION) + 1;
        for (let visit = 0; visit < MAX_QUEUED_VISITS + over; visit++)
          tracker.enqueue(visitOf(`t${visit % visitors}`, `/client/page-${visit}`));
        assert.ok((await visits("dropped")) >= over - visitors, "the oldest were dropped and counted");
        assert.deepEqual(
          lines
            .filter((line) => line.msg.startsWith("page tracking queue"))
            .map((line) => [line.level, line.msg.split(":")[0]]),
          [[40, "page tracking queue full"]],
        );
      } finally {
        await close();
        await tracker.flush(100);
      }
    });
  });

  describe("a flush with a deadline (the shutdown's)", () => {
    it("stops waiting at its deadline, logs one line with the number not sent, and counts them as dropped", async () => {
      const { lines, tracker, visits, close } = await trackerOn("hang");
      try {
        for (const token of ["a", "b"])
          for (const page of ["/one", "/two", "/three"]) tracker.enqueue(visitOf(token, page));
        const started = performance.now();
        const unsent = await tracker.flush(300);
        const elapsed = performance.now() - started;
        assert.equal(unsent, 6);
        assert.ok(elapsed < scaled(1_000), `gave up after ${Math.round(elapsed)} ms`);
        assert.equal(await visits("dropped"), 6);
        const said = lines.filter((line) => line.msg.includes("not sent"));
        assert.equal(said.length, 1);
        assert.equal(said[0]?.unsent, 6);
      } finally {
        await close();
      }
    });

    it("answers 0 at once when everything was sent", async () => {
      const { tracker, visits, close } = await trackerOn({ status: 200 });
      try {
        tracker.enqueue(visitOf("a", "/one"));
        assert.equal(await tracker.flush(scaled(2_000)), 0);
        assert.equal(await visits("sent"), 1);
      } finally {
        await close();
      }
    });
  });

  describe("a silent upstream", () => {
    /** The server's own calls' deadline here, and time for a slow machine. */
    const DEADLINE_MS = scaled(500);
    const BOUND_MS = DEADLINE_MS + scaled(400);

    it("page tracking against a silent upstream flushes within the deadline and never throws", async () => {
      const silent = await startFakeUpstream();
      silent.faults.track = { kind: "hang" };
      try {
        const client = createUpstreamClient({
          baseUrl: silent.url,
          timeoutMs: DEADLINE_MS,
          metrics: new Metrics(),
          operationOf: () => "test",
        });
        const tracker = new VisitTracker(client, new Metrics(), pino({ level: "silent" }));
        for (let i = 0; i < 50; i++) tracker.enqueue(visitOf(`token-${i % 10}`, "/client/home"));
        const started = performance.now();
        const flushed = await Promise.race([
          tracker.flush().then(() => "flushed"),
          new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 5 * BOUND_MS + scaled(2_000))),
        ]);
        const elapsed = performance.now() - started;
        assert.notEqual(flushed, "hung");
        // Ten tokens side by side, five visits each one after another: five deadlines at most.
        assert.ok(elapsed < 5 * BOUND_MS, `${elapsed.toFixed(0)} ms`);
      } finally {
        await silent.close();
      }
    });
  });
});

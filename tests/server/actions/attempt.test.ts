// server/actions/attempt.ts: a throttled attempt, wherever it is refused, is a 429 that says how long to wait, counted, and
// said on its request's own log line, so that a flood of attempts adds no line of its own; and what a call came to
// decides, once, whether its attempt stays counted.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify";
import { PortalClient } from "#harness/portal-client.ts";
import { type Counts, type Outcome, takeAttempt, tooManyAttempts } from "#server/actions/attempt.ts";
import type { AppContext } from "#server/context.ts";
import { installErrorHandling } from "#server/plugins/errors.ts";
import { loggerOptions, OneLinePerRequest } from "#server/plugins/logging.ts";
import { Metrics } from "#server/plugins/metrics.ts";
import { Throttle, WINDOW_MS } from "#server/security/throttle.ts";
import { MemoryCounters } from "#server/stores/counters.ts";
import { serverTexts } from "#server/texts.ts";

/** A context with the throttle's real budgets, in memory: `perIp` attempts a minute from one address. */
function contextWith(perIp: number) {
  const counters = new MemoryCounters(Date.now);
  const metrics = new Metrics();
  const context = { metrics, throttle: new Throttle(counters, { perIp, perUser: 10 }) } as unknown as AppContext;
  /** The attempts the address has spent in this minute's window. */
  const spent = async () => (await counters.peek("reset|ip|203.0.113.7")).count;
  return { context, metrics, spent };
}
const request = { ip: "203.0.113.7", log: { info: () => undefined } } as unknown as FastifyRequest;
const reply = {} as FastifyReply;

describe("a throttled attempt", () => {
  it("is answered 429 with Retry-After and its words, counted, and said on the request's one line", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = { write: (line: string) => void lines.push(JSON.parse(line)) } as unknown as NodeJS.WritableStream;
    const app = Fastify({ logger: loggerOptions("info", stream), logController: new OneLinePerRequest() });
    const { context, metrics } = contextWith(0);
    installErrorHandling(app); // the refusal's one writer
    app.post("/attempt", async (request) => {
      const attempt = await takeAttempt(context, request, { group: "sign-in", person: undefined, counts: "failures" });
      if (attempt.wait !== undefined) throw tooManyAttempts(attempt.wait);
      return {};
    });
    try {
      const answer = await new PortalClient(app).post("/attempt", {});
      const wait = WINDOW_MS / 1000;
      assert.equal(answer.status, 429);
      assert.equal(answer.headers["retry-after"], String(wait));
      assert.deepEqual(answer.json(), {
        detail: serverTexts.throttled.message(wait),
        code: serverTexts.throttled.code,
      });
      const samples = (await metrics.signIns.get()).values;
      assert.deepEqual(
        samples.map(({ labels, value }) => [labels.event, labels.outcome, value]),
        [["sign-in", "throttled", 1]],
      );
      assert.equal(lines.length, 1, "one line for the request and its throttling");
      assert.equal(lines[0]?.msg, "request completed");
      assert.equal(lines[0]?.event, "throttled");
      assert.equal(lines[0]?.group, "sign-in");
    } finally {
      await app.close();
    }
  });
});

describe("what a throttled call came to", () => {
  const counted: Array<[Outcome, Counts, boolean]> = [
    ["not-sent", "failures", false],
    ["checked", "failures", true],
    ["refused", "failures", true],
    ["failed", "failures", true],
    ["session-ended", "failures", false],
    ["passed", "failures", false],
    ["passed", "every", true],
    ["not-sent", "every", false],
    ["refused", "every", true],
  ];
  for (const [outcome, counts, stays] of counted)
    it(`${outcome}, where ${counts === "every" ? "every call counts" : "only failures count"}: the attempt ${stays ? "stays counted" : "is given back"}`, async () => {
      const { context, spent } = contextWith(30);
      const attempt = await takeAttempt(context, request, { group: "reset", person: undefined, counts });
      assert.equal(await spent(), 1, "taken before the call leaves");
      if (outcome === "passed") await attempt.passed(reply);
      else await attempt.settle(outcome);
      assert.equal(await spent(), stays ? 1 : 0);
    });

  it("is settled by its first word: a call given back once is not given back again, nor counted later", async () => {
    const { context, spent } = contextWith(30);
    const other = await takeAttempt(context, request, { group: "reset", person: undefined, counts: "failures" });
    const attempt = await takeAttempt(context, request, { group: "reset", person: undefined, counts: "failures" });
    await attempt.settle("not-sent");
    await attempt.settle("not-sent");
    assert.equal(await spent(), 1, "the other call's attempt is still counted");
    await other.settle("failed");
    await other.settle("not-sent"); // the request's end finds it settled already
    assert.equal(await spent(), 1);
  });

  it("a fault: an unreachable upstream never saw the call, any other may have", async () => {
    const { context, spent } = contextWith(30);
    const unreachable = await takeAttempt(context, request, { group: "reset", person: undefined, counts: "every" });
    await unreachable.faulted("unreachable");
    assert.equal(await spent(), 0);
    const late = await takeAttempt(context, request, { group: "reset", person: undefined, counts: "every" });
    await late.faulted("timeout");
    assert.equal(await spent(), 1);
  });
});

// A throttled attempt, wherever it is refused: a 429 that says how long to wait, counted, and said on its request's own
// log line, so that a flood of attempts adds no line of its own.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import Fastify from "fastify";
import { PortalClient } from "#harness/portal-client.ts";
import { countThrottled, tooManyAttempts } from "#server/api/throttled.ts";
import type { AppContext } from "#server/context.ts";
import { installErrorHandling } from "#server/errors.ts";
import { loggerOptions, OneLinePerRequest } from "#server/logging.ts";
import { Metrics } from "#server/metrics.ts";
import { serverTexts } from "#server/texts.ts";

describe("a throttled attempt", () => {
  it("is answered 429 with Retry-After and its words, counted, and said on the request's one line", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = { write: (line: string) => void lines.push(JSON.parse(line)) } as unknown as NodeJS.WritableStream;
    const app = Fastify({ logger: loggerOptions("info", stream), logController: new OneLinePerRequest() });
    const metrics = new Metrics();
    const context = { metrics } as unknown as AppContext;
    installErrorHandling(app); // the refusal's one writer
    app.post("/attempt", async (request) => {
      countThrottled(context, request, "sign-in");
      throw tooManyAttempts(7);
    });
    try {
      const answer = await new PortalClient(app).post("/attempt", {});
      assert.equal(answer.status, 429);
      assert.equal(answer.headers["retry-after"], "7");
      assert.deepEqual(answer.json(), { detail: serverTexts.throttled.message(7), code: serverTexts.throttled.code });
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

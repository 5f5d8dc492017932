// A run of failures is logged as two lines, when it starts and when it ends with its count, however long it lasts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import pino from "pino";
import { FailureRun, FailureRuns } from "#server/plugins/logging.ts";

function logged() {
  const lines: Array<{ level: number; msg: string } & Record<string, unknown>> = [];
  const log = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { lines, run: new FailureRun(log, "things failing", "things work again") };
}

describe("a run of failures", () => {
  it("says when it starts, with what the first failure was, and when it ends, with the count", () => {
    const { lines, run } = logged();
    run.succeeded();
    for (let failure = 0; failure < 1_000; failure++) run.failed({ status: 500 + (failure % 4) });
    assert.equal(run.count, 1_000);
    run.succeeded();
    run.succeeded();
    assert.deepEqual(
      lines.map(({ level, msg, status, failed }) => [level, msg, status, failed]),
      [
        [40, "things failing", 500, undefined],
        [30, "things work again", undefined, 1_000],
      ],
    );
    assert.equal(run.count, 0);
  });

  it("says each later run again", () => {
    const { lines, run } = logged();
    for (const outage of [3, 2]) {
      for (let failure = 0; failure < outage; failure++) run.failed({});
      run.succeeded();
    }
    assert.deepEqual(
      lines.map(({ msg, failed }) => [msg, failed]),
      [
        ["things failing", undefined],
        ["things work again", 3],
        ["things failing", undefined],
        ["things work again", 2],
      ],
    );
  });

  it("keeps a run per key: one operation's faults neither start nor end another's", () => {
    const lines: Array<{ msg: string; operation?: string; failed?: number }> = [];
    const log = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const runs = new FailureRuns(log, "upstream fault", "upstream answers again", "operation");
    for (let failure = 0; failure < 50; failure++) runs.failed("login", { fault: "timeout" });
    runs.failed("track", { fault: "unreachable" });
    runs.succeeded("track");
    assert.equal(runs.count("login"), 50);
    runs.succeeded("login");
    runs.succeeded("never-failed");
    assert.deepEqual(
      lines.map(({ msg, operation, failed }) => [msg, operation, failed]),
      [
        ["upstream fault", "login", undefined],
        ["upstream fault", "track", undefined],
        ["upstream answers again", "track", 1],
        ["upstream answers again", "login", 50],
      ],
    );
  });
});

// The upstream's state as the readiness probe finds it: a gauge in /metrics, and one log line when it changes.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import pino from "pino";
import { Metrics } from "#server/plugins/metrics.ts";
import { UpstreamHealth } from "#server/upstream/health.ts";

function watched() {
  const lines: Array<{ level: number; event?: string }> = [];
  const log = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const metrics = new Metrics();
  const gauge = async () => /^portal_upstream_up (\d)$/m.exec(await metrics.registry.metrics())?.[1];
  return { lines, gauge, health: new UpstreamHealth(metrics, log) };
}

describe("the upstream's health", () => {
  it("logs a change once, however many probes repeat it, and the gauge follows each", async () => {
    const { lines, gauge, health } = watched();
    for (const up of [false, false, false]) health.probed(up);
    assert.equal(await gauge(), "0");
    for (const up of [true, true]) health.probed(up);
    assert.equal(await gauge(), "1");
    health.probed(false);
    assert.deepEqual(
      lines.map((line) => [line.level, line.event]),
      [
        [40, "upstream-down"],
        [30, "upstream-up"],
        [40, "upstream-down"],
      ],
    );
  });

  it("says nothing when the first probe finds the upstream answering: nothing changed that anyone knew of", async () => {
    const { lines, gauge, health } = watched();
    health.probed(true);
    health.probed(true);
    assert.deepEqual(lines, []);
    assert.equal(await gauge(), "1");
  });
});

// server/stores/one-pass-at-a-time.ts: passes never overlap, a call during a pass gets one more pass after it, and a
// pass that answers false stops the run.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { OnePassAtATime } from "#server/stores/one-pass-at-a-time.ts";

/** A pass that waits until the test lets it end, counting how many started and how many ran at once. */
function heldPasses(answer = true) {
  const state = { started: 0, running: 0, most: 0, release: () => {} };
  const pass = async () => {
    state.started += 1;
    state.running += 1;
    state.most = Math.max(state.most, state.running);
    await new Promise<void>((resolve) => {
      state.release = resolve;
    });
    state.running -= 1;
    return answer;
  };
  return { state, pass };
}

describe("one pass at a time", () => {
  it("runs one pass when nothing else asks", async () => {
    let passes = 0;
    await new OnePassAtATime(async () => {
      passes += 1;
      return true;
    }).run();
    assert.equal(passes, 1);
  });

  it("shares the pass under way, and runs one more after it for everything asked meanwhile", async () => {
    const { state, pass } = heldPasses();
    const runner = new OnePassAtATime(pass);
    const first = runner.run();
    const second = runner.run();
    const third = runner.run();
    assert.equal(second, first, "the same promise");
    assert.equal(third, first);
    state.release();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(state.started, 2, "one more pass, not two");
    state.release();
    await first;
    assert.equal(state.most, 1, "never two at once");
    await runner.settled();
  });

  it("stops when a pass answers false, even if asked again meanwhile", async () => {
    const { state, pass } = heldPasses(false);
    const runner = new OnePassAtATime(pass);
    const run = runner.run();
    void runner.run();
    state.release();
    await run;
    assert.equal(state.started, 1);
    const later = runner.run();
    state.release();
    await later;
    assert.equal(state.started, 2, "a later call starts a new run");
  });
});

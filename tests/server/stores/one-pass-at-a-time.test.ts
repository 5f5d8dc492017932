// server/stores/one-pass-at-a-time.ts: passes never overlap, a call during a pass gets one more pass after it, a pass
// that answers false or fails stops the run (a failure told to the link), and the link's coming up runs it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { OnePassAtATime } from "#server/stores/one-pass-at-a-time.ts";
import type { RedisLink } from "#server/stores/redis-link.ts";

/** A link whose `onUp` listener the test calls, keeping what it was told failed. */
function fakeLink() {
  const failures: unknown[] = [];
  let up = () => {};
  const link = {
    failed: (error: unknown) => failures.push(error),
    onUp: (listener: () => void) => {
      up = listener;
    },
  } as unknown as RedisLink;
  return { link, failures, up: () => up() };
}

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
    await new OnePassAtATime(fakeLink().link, async () => {
      passes += 1;
      return true;
    }).run();
    assert.equal(passes, 1);
  });

  it("shares the pass under way, and runs one more after it for everything asked meanwhile", async () => {
    const { state, pass } = heldPasses();
    const runner = new OnePassAtATime(fakeLink().link, pass);
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
    const runner = new OnePassAtATime(fakeLink().link, pass);
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

  it("tells the link of a pass that failed and stops, and runs again when the link comes up", async () => {
    const { link, failures, up } = fakeLink();
    let passes = 0;
    const runner = new OnePassAtATime(link, async () => {
      passes += 1;
      if (passes === 1) throw new Error("Command timed out");
      return true;
    });
    await runner.run();
    assert.equal(passes, 1);
    assert.equal(failures.length, 1, "the link was told");
    up();
    await runner.settled();
    assert.equal(passes, 2, "the link's coming up ran it");
    assert.equal(failures.length, 1);
  });
});

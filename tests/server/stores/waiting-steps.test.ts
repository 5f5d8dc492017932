// server/stores/waiting-steps.ts: per item the last waiting step wins, oldest first, bounded, and a step Redis took
// forgotten unless a later one came for the same item meanwhile; without items every step waits, in order.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ChainableCommander } from "ioredis";
import { RedisLink } from "#server/stores/redis-link.ts";
import { WaitingSteps } from "#server/stores/waiting-steps.ts";

type Step = { person: string; id: string; step: "add" | "remove" };
const add = (id: string, person = "p"): Step => ({ person, id, step: "add" });
const remove = (id: string): Step => ({ person: "p", id, step: "remove" });

/** A link the test sets up or down; each pipeline's `exec` runs `onExec` (which may throw) and answers nothing. */
function fakeLink() {
  const state = { usable: false, failures: [] as unknown[], onExec: async () => {} };
  const link = {
    get usable() {
      return state.usable;
    },
    onUp: () => {},
    failed: (error: unknown) => void state.failures.push(error),
    either: RedisLink.prototype.either, // the real link's: the task while usable, else (or on failure) the other
    commands: {
      pipeline: () => ({
        exec: async () => {
          await state.onExec();
          return [];
        },
      }),
    },
  } as unknown as RedisLink;
  return { link, state };
}

/** Steps on a fake link that write into `written`, one step per item unless `perItem` is false. */
function waitingOn(perItem = true, max?: number) {
  const { link, state } = fakeLink();
  const written: Step[] = [];
  const itemOf = perItem ? ({ person, id }: Step) => `${person}\n${id}` : undefined;
  const steps = new WaitingSteps<Step>(
    link,
    (_pipeline: ChainableCommander, step) => void written.push(step),
    itemOf,
    max,
  );
  const sent: Step[] = [];
  const send = (step: Step) =>
    steps.send(
      step,
      async () => {
        sent.push(step);
        return "sent";
      },
      "kept",
    );
  return { steps, state, written, sent, send };
}

describe("the steps that wait for Redis", () => {
  it("keep one step per item, the last one, in the order they were last made", async () => {
    const { steps, state, written, send } = waitingOn();
    assert.deepEqual(await Promise.all([send(add("a")), send(add("b")), send(remove("a"))]), ["kept", "kept", "kept"]);
    assert.equal(steps.size, 2);
    state.usable = true;
    await steps.run();
    assert.deepEqual(
      written.map(({ id, step }) => [id, step]),
      [
        ["b", "add"],
        ["a", "remove"],
      ],
    );
    assert.equal(steps.size, 0);
  });

  it("hold back a step behind a waiting one of its own item only", async () => {
    const { steps, state, sent, send } = waitingOn();
    await send(add("a"));
    state.usable = true;
    state.onExec = () => new Promise(() => {}); // the replay never ends
    assert.equal(await send(add("a", "other")), "sent");
    assert.equal(await send(add("a")), "kept");
    assert.deepEqual(sent, [add("a", "other")]);
    assert.equal(steps.size, 1);
  });

  it("forget a step Redis took, but not a later one for the same item", async () => {
    const { steps, state, written, send } = waitingOn();
    await send(add("a"));
    state.usable = true;
    let passes = 0;
    state.onExec = async () => {
      passes += 1;
      if (passes === 1)
        await send(remove("a")); // made while the first was on its way
      else throw new Error("Command timed out");
    };
    await steps.run();
    assert.deepEqual(written, [add("a"), remove("a")]);
    assert.equal(state.failures.length, 1, "the link was told");
    assert.equal(steps.size, 1, "the later step still waits");
    state.onExec = async () => {};
    await steps.run();
    assert.deepEqual(written.at(-1), remove("a"));
    assert.equal(steps.size, 0);
  });

  it("keep at most their bound, the oldest forgotten first", async () => {
    const { steps, state, written, send } = waitingOn(true, 2);
    for (const id of ["a", "b", "c"]) await send(add(id));
    state.usable = true;
    await steps.run();
    assert.deepEqual(
      written.map(({ id }) => id),
      ["b", "c"],
    );
  });

  it("without items keep every step, each behind all the others", async () => {
    const { steps, state, written, send } = waitingOn(false);
    await send(add("x"));
    await send(add("x"));
    state.usable = true;
    state.onExec = () => new Promise(() => {}); // the replay never ends
    assert.equal(await send(add("y")), "kept", "behind the two waiting");
    assert.equal(steps.size, 3);
    assert.deepEqual(written, [add("x"), add("x"), add("y")]);
  });

  it("keep a step whose send failed, and tell the link", async () => {
    const { steps, state, written } = waitingOn(false);
    state.usable = true;
    assert.equal(await steps.send(add("z"), () => Promise.reject(new Error("Command timed out")), "kept"), "kept");
    assert.equal(state.failures.length, 1);
    await steps.run();
    assert.deepEqual(written, [add("z")]);
  });
});

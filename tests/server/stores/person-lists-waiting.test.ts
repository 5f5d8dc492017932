// server/stores/person-lists-waiting.ts: one waiting step per item, the last winning, oldest first, bounded, and a step
// Redis took forgotten unless a later one came for the same item meanwhile.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { WaitingSteps } from "#server/stores/person-lists-waiting.ts";

type Thing = { label: string };
const add = (id: string, label = id) => ({ person: "p", id, step: "add" as const, item: { label }, options: {} });
const remove = (id: string) => ({ person: "p", id, step: "remove" as const });

describe("the steps that wait for Redis", () => {
  it("keep one step per item, the last one, in the order they were last made", () => {
    const steps = new WaitingSteps<Thing>();
    steps.keep(add("a"));
    steps.keep(add("b"));
    steps.keep(remove("a"));
    assert.deepEqual(
      steps.all().map(({ id, step }) => [id, step]),
      [
        ["b", "add"],
        ["a", "remove"],
      ],
    );
    assert.equal(steps.has("p", "a"), true);
    assert.equal(steps.has("other", "a"), false);
  });

  it("forget a step Redis took, but not a later one for the same item", () => {
    const steps = new WaitingSteps<Thing>();
    const first = add("a");
    steps.keep(first);
    const sent = steps.all();
    steps.keep(remove("a")); // made while the first was on its way
    for (const step of sent) steps.done(step);
    assert.deepEqual(steps.all(), [remove("a")]);
    for (const step of steps.all()) steps.done(step);
    assert.equal(steps.size, 0);
  });

  it("keep at most their bound, the oldest forgotten first", () => {
    const steps = new WaitingSteps<Thing>(2);
    for (const id of ["a", "b", "c"]) steps.keep(add(id));
    assert.deepEqual(
      steps.all().map(({ id }) => id),
      ["b", "c"],
    );
  });
});

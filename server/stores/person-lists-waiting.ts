// What a replica added to or removed from the per-person lists while Redis could not take it: one step per item (the
// last one wins), bounded, oldest first, to be sent when Redis returns (server/stores/person-lists-redis.ts).
import { LRUCache } from "lru-cache";
import { bounded } from "#server/stores/memory-bounds.ts";
import type { AddOptions } from "#server/stores/person-lists.ts";

/** Steps kept per kind of list and process; past this the oldest is forgotten (docs/decisions.md, "Shared state"). */
const WAITING_MAX = 20_000;

export type WaitingStep<T extends object> =
  | { person: string; id: string; step: "add"; item: T; options: AddOptions }
  | { person: string; id: string; step: "remove" };

export class WaitingSteps<T extends object> {
  readonly #steps: LRUCache<string, WaitingStep<T>>;

  constructor(max = WAITING_MAX) {
    this.#steps = new LRUCache<string, WaitingStep<T>>({ ...bounded(max) });
  }

  /** Keeps the step, in place of any earlier one for the same item. */
  keep(step: WaitingStep<T>): void {
    const key = keyOf(step.person, step.id);
    this.#steps.delete(key); // re-inserted as the newest
    this.#steps.set(key, step);
  }

  has(person: string, id: string): boolean {
    return this.#steps.has(keyOf(person, id));
  }

  /** Oldest first. */
  all(): WaitingStep<T>[] {
    return [...this.#steps.rvalues()].filter((step) => step !== undefined);
  }

  /** Forgets a step once Redis took it, unless a later one for the same item came meanwhile. */
  done(step: WaitingStep<T>): void {
    const key = keyOf(step.person, step.id);
    if (this.#steps.peek(key) === step) this.#steps.delete(key);
  }

  get size(): number {
    return this.#steps.size;
  }
}

const keyOf = (person: string, id: string): string => `${person}\n${id}`;

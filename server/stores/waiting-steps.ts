// What a store shared through Redis could not send while Redis was away (the per-person lists, the failure counts):
// bounded, oldest first, and sent in order, in pipelines, when it returns.
import type { ChainableCommander } from "ioredis";
import { LRUCache } from "lru-cache";
import { bounded } from "#server/stores/memory-bounds.ts";
import { OnePassAtATime } from "#server/stores/one-pass-at-a-time.ts";
import { type RedisLink, runPipeline } from "#server/stores/redis-link.ts";

/** Steps kept per store and process; past this the oldest is forgotten (docs/decisions.md, "Shared state"). */
const WAITING_MAX = 20_000;
/** Waiting steps sent per pipeline when Redis returns. */
const BATCH = 500;

export class WaitingSteps<S extends object> extends OnePassAtATime {
  /** Oldest first: never read in between, so the least recently used is the oldest. */
  readonly #steps: LRUCache<string, S>;
  #sequence = 0;

  /**
   * `write` puts a step in a pipeline. With `itemOf`, a step takes the place of a waiting one of the same item and
   * waits only behind it (the last one wins); without it, every step is kept and waits behind all. `run` sends what
   * waits, oldest first.
   */
  constructor(
    link: RedisLink,
    private readonly write: (pipeline: ChainableCommander, step: S) => void,
    private readonly itemOf?: (step: S) => string,
    max = WAITING_MAX,
  ) {
    super(link, () => this.#pass());
    this.#steps = new LRUCache<string, S>(bounded(max));
  }

  /**
   * `send`'s answer, unless the step must wait (Redis cannot take it, or an earlier step it follows still waits) or
   * `send` fails: then it is kept, to be sent when Redis returns, and the answer is `otherwise`.
   */
  async send<T>(step: S, send: () => Promise<T>, otherwise: T): Promise<T> {
    const behind = this.itemOf ? this.#steps.has(this.itemOf(step)) : this.#steps.size > 0;
    const wait = () => {
      this.#keep(step);
      return otherwise;
    };
    if (!behind) return this.link.either(send, wait);
    const kept = wait(); // kept before the pass starts, so that it goes with it
    if (this.link.usable) void this.run();
    return kept;
  }

  /** Steps not yet in Redis. */
  get size(): number {
    return this.#steps.size;
  }

  #keep(step: S): void {
    const key = this.itemOf?.(step) ?? String(this.#sequence++);
    this.#steps.delete(key); // re-inserted as the newest
    this.#steps.set(key, step);
  }

  /** One pass over what waits, in batches; false when the link went unusable part-way (a failed batch throws). */
  async #pass(): Promise<boolean> {
    const steps = [...this.#steps.entries()].reverse();
    for (let start = 0; start < steps.length; start += BATCH) {
      if (!this.link.usable) return false;
      const batch = steps.slice(start, start + BATCH);
      const pipeline = this.link.commands.pipeline();
      for (const [, step] of batch) this.write(pipeline, step);
      await runPipeline(pipeline);
      // Forgotten once Redis took it, unless a later step of the same item came meanwhile.
      for (const [key, step] of batch) if (this.#steps.peek(key) === step) this.#steps.delete(key);
    }
    return true;
  }
}

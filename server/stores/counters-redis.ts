// Counters shared by every replica through Redis; while Redis is unreachable or slow, or refuses a new count for its
// maxmemory, this replica counts alone.
import { type Count, type CounterStore, MemoryCounters } from "#server/stores/counters.ts";
import { type RedisKeys, wholeMs } from "#server/stores/redis-keys.ts";
import type { RedisLink } from "#server/stores/redis-link.ts";

export class RedisCounters implements CounterStore {
  /** Counts while Redis cannot: neither unlimited nor refusing everyone (docs/decisions.md, "Shared state"). */
  readonly #fallback: MemoryCounters;

  constructor(
    private readonly link: RedisLink,
    private readonly keys: RedisKeys,
  ) {
    this.#fallback = new MemoryCounters(link.now);
  }

  hit(key: string, windowMs: number): Promise<Count> {
    return this.link.either(
      async (redis) => {
        const [count, resetInMs] = await redis.portalHit(this.keys.count(key), wholeMs(windowMs));
        this.link.wrote();
        return { count, resetInMs };
      },
      () => this.#fallback.hit(key, windowMs),
    );
  }

  peek(key: string): Promise<Count> {
    return this.link.either(
      async (redis) => {
        const [count, resetInMs] = await redis.portalPeek(this.keys.count(key));
        return { count, resetInMs };
      },
      () => this.#fallback.peek(key),
    );
  }

  giveBack(key: string): Promise<void> {
    return this.link.either(
      async (redis) => void (await redis.portalGiveBack(this.keys.count(key))),
      () => this.#fallback.giveBack(key),
    );
  }

  async clear(key: string): Promise<void> {
    await this.#fallback.clear(key);
    // Not retried: the count still ends with its window.
    await this.link.either(
      async (redis) => void (await redis.del(this.keys.count(key))),
      () => {},
    );
  }
}

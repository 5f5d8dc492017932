// Counters shared by every replica through Redis; while Redis is unreachable or slow, or refuses a new count for its
// maxmemory, this replica counts alone.
import { type Count, type CounterStore, MemoryCounters } from "#server/stores/counters.ts";
import { type RedisKeys, wholeMs } from "#server/stores/redis-keys.ts";
import type { RedisLink } from "#server/stores/redis-link.ts";

export class RedisCounters implements CounterStore {
  /** Counts while Redis cannot: neither unlimited nor refusing everyone (docs/decisions.md, "Shared state"). */
  readonly fallback: MemoryCounters;

  constructor(
    private readonly link: RedisLink,
    private readonly keys: RedisKeys,
  ) {
    this.fallback = new MemoryCounters(link.now);
  }

  async hit(key: string, windowMs: number): Promise<Count> {
    if (this.link.usable) {
      try {
        const [count, left] = await this.link.commands.portalHit(this.keys.count(key), wholeMs(windowMs));
        this.link.wrote();
        return { count, resetInMs: left };
      } catch (error) {
        this.link.failed(error);
      }
    }
    return this.fallback.hitNow(key, windowMs);
  }

  async peek(key: string): Promise<Count> {
    if (this.link.usable) {
      try {
        const [count, left] = await this.link.commands.portalPeek(this.keys.count(key));
        return { count, resetInMs: left };
      } catch (error) {
        this.link.failed(error);
      }
    }
    return this.fallback.peekNow(key);
  }

  async giveBack(key: string): Promise<void> {
    if (this.link.usable) {
      try {
        await this.link.commands.portalGiveBack(this.keys.count(key));
        return;
      } catch (error) {
        this.link.failed(error);
      }
    }
    this.fallback.giveBackNow(key);
  }

  async clear(key: string): Promise<void> {
    await this.fallback.clear(key);
    if (!this.link.usable) return;
    try {
      await this.link.commands.del(this.keys.count(key));
    } catch (error) {
      // Not retried: the count still ends with its window.
      this.link.failed(error);
    }
  }
}

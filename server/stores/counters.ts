// Counters in fixed windows (throttles, wrong MFA codes): the interface, and the bounded in-memory one.
import { LRUCache } from "lru-cache";
import { bounded, COUNTERS_MAX, clockOf } from "#server/stores/memory-bounds.ts";

/** A counter's state: hits in the current window, and how long until that window ends (0: no window open). */
export type Count = { count: number; resetInMs: number };

/** The first hit opens a window of `windowMs`; later hits count in it and never move its end. */
export interface CounterStore {
  /** Counts one hit, atomically; answers the count including it. Never rejects. */
  hit(key: string, windowMs: number): Promise<Count>;
  /** The current count, without counting. */
  peek(key: string): Promise<Count>;
  /** Takes back one hit of the current window (an attempt that succeeded): never below 0, never opens a window. */
  giveBack(key: string): Promise<void>;
  /** Forgets the key's count. */
  clear(key: string): Promise<void>;
}

type Entry = { count: number; until: number };

export class MemoryCounters implements CounterStore {
  readonly #entries: LRUCache<string, Entry>;
  readonly #now: () => number;

  constructor(now?: () => number, max = COUNTERS_MAX) {
    this.#now = now ?? (() => performance.now());
    // The entry's own `until` decides; lru-cache's ttl only lets it drop expired entries without a scan.
    this.#entries = new LRUCache<string, Entry>({ ...bounded(max), ttlResolution: 0, perf: clockOf(now), ttl: 1 });
  }

  async hit(key: string, windowMs: number): Promise<Count> {
    return this.hitNow(key, windowMs);
  }

  /** The same, answered at once: the Redis store counts here while Redis is unreachable. */
  hitNow(key: string, windowMs: number): Count {
    const time = this.#now();
    const entry = this.#entries.get(key);
    if (entry && entry.until > time) {
      entry.count += 1;
      return { count: entry.count, resetInMs: entry.until - time };
    }
    this.#entries.set(key, { count: 1, until: time + windowMs }, { ttl: windowMs });
    return { count: 1, resetInMs: windowMs };
  }

  async peek(key: string): Promise<Count> {
    return this.peekNow(key);
  }

  peekNow(key: string): Count {
    const time = this.#now();
    const entry = this.#entries.get(key);
    return entry && entry.until > time
      ? { count: entry.count, resetInMs: entry.until - time }
      : { count: 0, resetInMs: 0 };
  }

  async giveBack(key: string): Promise<void> {
    this.giveBackNow(key);
  }

  giveBackNow(key: string): void {
    const entry = this.#entries.get(key);
    if (entry && entry.until > this.#now() && entry.count > 0) entry.count -= 1;
  }

  async clear(key: string): Promise<void> {
    this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}

// Counters in fixed windows (throttles, wrong MFA codes): the interface, and the bounded in-memory one.
import { LRUCache } from "lru-cache";
import { COUNTER_BOUNDS, expiring } from "#server/stores/memory-bounds.ts";

/** A counter's state: hits in the current window, and how long until that window ends (0: no window open). */
export type Count = { count: number; resetInMs: number };

/** The first hit opens a window of `windowMs`; later hits count in it and never move its end. */
export interface CounterStore {
  /** Counts one hit, atomically; answers the count including it. Never rejects. */
  hit(key: string, windowMs: number): Promise<Count>;
  /** The current count, without counting. */
  peek(key: string): Promise<Count>;
  /** Takes back one hit of the current window (an attempt reserved, then not to be counted). Never below 0. */
  giveBack(key: string): Promise<void>;
  /** Forgets the key's count. */
  clear(key: string): Promise<void>;
}

type Entry = { count: number; until: number };

export class MemoryCounters implements CounterStore {
  /** Each kind's counts, bounded on its own (COUNTER_BOUNDS): a flood of made-up names evicts only attempts' counts. */
  readonly #kinds = new Map<string, LRUCache<string, Entry>>();

  constructor(
    private readonly now: () => number,
    bounds: typeof COUNTER_BOUNDS = COUNTER_BOUNDS,
  ) {
    // The entry's own `until` decides; lru-cache's ttl only lets it drop expired entries without a scan.
    for (const [kind, max] of Object.entries(bounds)) this.#kinds.set(kind, new LRUCache(expiring(max, 1, now)));
  }

  #entries(key: string): LRUCache<string, Entry> {
    const kinds = this.#kinds;
    return kinds.get(key.split("|", 2)[1] ?? "") ?? (kinds.get("other") as LRUCache<string, Entry>);
  }

  async hit(key: string, windowMs: number): Promise<Count> {
    const time = this.now();
    const entries = this.#entries(key);
    const entry = entries.get(key);
    if (entry && entry.until > time) {
      entry.count += 1;
      return { count: entry.count, resetInMs: entry.until - time };
    }
    entries.set(key, { count: 1, until: time + windowMs }, { ttl: windowMs });
    return { count: 1, resetInMs: windowMs };
  }

  async peek(key: string): Promise<Count> {
    const time = this.now();
    const entry = this.#entries(key).get(key);
    return entry && entry.until > time
      ? { count: entry.count, resetInMs: entry.until - time }
      : { count: 0, resetInMs: 0 };
  }

  async giveBack(key: string): Promise<void> {
    const entry = this.#entries(key).get(key);
    if (entry && entry.until > this.now() && entry.count > 0) entry.count -= 1;
  }

  async clear(key: string): Promise<void> {
    this.#entries(key).delete(key);
  }

  get size(): number {
    return [...this.#kinds.values()].reduce((sum, entries) => sum + entries.size, 0);
  }
}

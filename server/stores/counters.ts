// Counters in fixed windows (throttles, wrong MFA codes): the interface, and the bounded in-memory one.
import { LRUCache } from "lru-cache";
import { COUNTERS_MAX, expiring } from "#server/stores/memory-bounds.ts";

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

/**
 * The kinds of counter that only a passed attempt or a live pending sign-in makes (a known address, a name the upstream
 * accepted, a device's budget, a pace gate past the hourly bound, a sign-in's wrong codes), by the kind segment of
 * their key (`<group>|<kind>|…`). They are kept apart from the counts of attempts, which anyone can make by the
 * thousand: a flood of made-up names evicts other attempts' counts at worst, never these (docs/decisions.md, "Shared
 * state").
 */
const EARNED: ReadonlySet<string> = new Set(["known", "accepted", "device", "pace", "strikes"]);
const isEarned = (key: string) => EARNED.has(key.split("|", 2)[1] ?? "");

export class MemoryCounters implements CounterStore {
  /** Attempts' counts, and the earned ones: each bounded on its own, the least recently hit going first. */
  readonly #attempts: LRUCache<string, Entry>;
  readonly #earned: LRUCache<string, Entry>;

  constructor(
    private readonly now: () => number,
    max = COUNTERS_MAX,
  ) {
    // The entry's own `until` decides; lru-cache's ttl only lets it drop expired entries without a scan.
    const cache = () => new LRUCache<string, Entry>(expiring(max, 1, now));
    this.#attempts = cache();
    this.#earned = cache();
  }

  #entries(key: string): LRUCache<string, Entry> {
    return isEarned(key) ? this.#earned : this.#attempts;
  }

  async hit(key: string, windowMs: number): Promise<Count> {
    return this.hitNow(key, windowMs);
  }

  /** The same, answered at once: the Redis store counts here while Redis is unreachable. */
  hitNow(key: string, windowMs: number): Count {
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
    return this.peekNow(key);
  }

  peekNow(key: string): Count {
    const time = this.now();
    const entry = this.#entries(key).get(key);
    return entry && entry.until > time
      ? { count: entry.count, resetInMs: entry.until - time }
      : { count: 0, resetInMs: 0 };
  }

  async giveBack(key: string): Promise<void> {
    this.giveBackNow(key);
  }

  giveBackNow(key: string): void {
    const entry = this.#entries(key).get(key);
    if (entry && entry.until > this.now() && entry.count > 0) entry.count -= 1;
  }

  async clear(key: string): Promise<void> {
    this.#entries(key).delete(key);
  }

  get size(): number {
    return this.#attempts.size + this.#earned.size;
  }
}

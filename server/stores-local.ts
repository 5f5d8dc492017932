// The security state kept in this process's memory (one replica): revoked session ids, counters and short locks,
// each bounded (lru-cache with expiry), so a flood of unique keys costs memory within a limit and no O(n) sweep.
import { LRUCache } from "lru-cache";

export interface RevocationStore {
  revoke(sid: string): Promise<void>;
  /** Synchronous: checked on every request that carries a session. */
  has(sid: string | undefined): boolean;
}

export type Count = { count: number; resetInMs: number };

export interface CounterStore {
  /** One more in `key`'s window (which starts at its first hit and lasts `windowMs`). */
  hit(key: string, windowMs: number): Promise<Count>;
  peek(key: string): Promise<Count>;
  clear(key: string): Promise<void>;
}

export interface LockStore {
  /** True when this caller now holds `key` (until released, or `ttlMs` at most). */
  acquire(key: string, ttlMs: number): Promise<boolean>;
  release(key: string): Promise<void>;
}

const MAX_ENTRIES = 100_000;

export class MemoryRevocations implements RevocationStore {
  #revoked: LRUCache<string, true>;
  constructor(lifetimeMs: number) {
    this.#revoked = new LRUCache({ max: MAX_ENTRIES, ttl: lifetimeMs, ttlAutopurge: false });
  }
  async revoke(sid: string): Promise<void> {
    this.#revoked.set(sid, true);
  }
  has(sid: string | undefined): boolean {
    return sid !== undefined && this.#revoked.has(sid);
  }
}

export class MemoryCounters implements CounterStore {
  #counts = new LRUCache<string, { count: number; until: number }>({ max: MAX_ENTRIES });
  constructor(private readonly now: () => number = Date.now) {}
  async hit(key: string, windowMs: number): Promise<Count> {
    const time = this.now();
    const entry = this.#counts.get(key);
    if (!entry || entry.until <= time) {
      this.#counts.set(key, { count: 1, until: time + windowMs });
      return { count: 1, resetInMs: windowMs };
    }
    entry.count += 1;
    return { count: entry.count, resetInMs: entry.until - time };
  }
  async peek(key: string): Promise<Count> {
    const time = this.now();
    const entry = this.#counts.get(key);
    return entry && entry.until > time
      ? { count: entry.count, resetInMs: entry.until - time }
      : { count: 0, resetInMs: 0 };
  }
  async clear(key: string): Promise<void> {
    this.#counts.delete(key);
  }
}

export class MemoryLocks implements LockStore {
  #held = new LRUCache<string, true>({ max: MAX_ENTRIES, ttl: 60_000 });
  async acquire(key: string, ttlMs: number): Promise<boolean> {
    if (this.#held.has(key)) return false;
    this.#held.set(key, true, { ttl: ttlMs });
    return true;
  }
  async release(key: string): Promise<void> {
    this.#held.delete(key);
  }
}

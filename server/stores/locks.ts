// A short lock (one MFA validate in flight per session): the interface, and the in-memory one.
import { LRUCache } from "lru-cache";
import { expiring, LOCKS_MAX } from "#server/stores/memory-bounds.ts";

/** A lock that frees itself after `ttlMs` if its holder never releases it (a crashed request, a dead replica). */
export interface LockStore {
  /** True when this caller now holds the key; false when someone else does. Never rejects. */
  acquire(key: string, ttlMs: number): Promise<boolean>;
  /** Frees the key if this process holds it; a lock taken by another process is left alone. */
  release(key: string): Promise<void>;
}

export class MemoryLocks implements LockStore {
  /** Key → until when it is held. */
  readonly #held: LRUCache<string, number>;

  constructor(
    private readonly now: () => number,
    max = LOCKS_MAX,
  ) {
    this.#held = new LRUCache<string, number>(expiring(max, 1, now));
  }

  async acquire(key: string, ttlMs: number): Promise<boolean> {
    return this.acquireNow(key, ttlMs);
  }

  acquireNow(key: string, ttlMs: number): boolean {
    const time = this.now();
    if ((this.#held.get(key) ?? 0) > time) return false;
    this.#held.set(key, time + ttlMs, { ttl: ttlMs });
    return true;
  }

  async release(key: string): Promise<void> {
    this.#held.delete(key);
  }
}

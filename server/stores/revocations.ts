// The revocation list: its interface, and the in-memory one that is correct for a single replica.
import { LRUCache } from "lru-cache";
import { expiring, REVOCATIONS_MAX } from "#server/stores/memory-bounds.ts";

/** Session ids refused before their cookie expires (sign out, wrong-code limit, upstream 401, too large). */
export interface RevocationStore {
  /** Refuses this session id until no cookie carrying it could still be valid. Never rejects. */
  revoke(sid: string): Promise<void>;
  /** Answered from this process's memory: no network round trip on the hot path. */
  has(sid: string | undefined): boolean;
}

export class MemoryRevocations implements RevocationStore {
  /** Session id → until when it is refused; lru-cache's ttl drops it then, and bounds how many are kept. */
  readonly #ids: LRUCache<string, number>;

  constructor(
    private readonly lifetimeMs: number,
    private readonly now: () => number,
    max = REVOCATIONS_MAX,
  ) {
    this.#ids = new LRUCache<string, number>(expiring(max, lifetimeMs, now));
  }

  async revoke(sid: string): Promise<void> {
    this.add(sid);
  }

  /** Kept for `ttlMs` (default: the whole lifetime); the Redis store feeds what it hears and loads through this. */
  add(sid: string, ttlMs?: number): void {
    const ttl = ttlMs ?? this.lifetimeMs;
    this.#ids.set(sid, this.now() + ttl, { ttl });
  }

  has(sid: string | undefined): boolean {
    if (!sid) return false;
    const until = this.#ids.get(sid);
    return until !== undefined && until > this.now();
  }

  get size(): number {
    return this.#ids.size;
  }

  /** Each id still refused, with the milliseconds it has left. */
  *entries(): Generator<[string, number]> {
    const time = this.now();
    for (const [sid, until] of this.#ids.entries()) if (until > time) yield [sid, until - time];
  }
}

// A short lock shared by every replica (SET NX PX, released only by its holder); in memory while Redis cannot answer.
import { randomBytes } from "node:crypto";
import { LRUCache } from "lru-cache";
import { type LockStore, MemoryLocks } from "#server/stores/locks.ts";
import { expiring, LOCKS_MAX } from "#server/stores/memory-bounds.ts";
import { type RedisKeys, wholeMs } from "#server/stores/redis-keys.ts";
import type { RedisLink } from "#server/stores/redis-link.ts";

/** Where this process took a lock: Redis (with the token that proves it) or its own memory. */
type Held = { token: string } | { memory: true };

export class RedisLocks implements LockStore {
  readonly fallback: MemoryLocks;
  readonly #held: LRUCache<string, Held>;

  constructor(
    private readonly link: RedisLink,
    private readonly keys: RedisKeys,
  ) {
    this.fallback = new MemoryLocks(link.now);
    this.#held = new LRUCache<string, Held>(expiring(LOCKS_MAX, 1, link.now));
  }

  acquire(key: string, ttlMs: number): Promise<boolean> {
    return this.link.either(
      async (redis) => {
        const token = randomBytes(16).toString("base64url");
        const taken = (await redis.set(this.keys.lock(key), token, "PX", wholeMs(ttlMs), "NX")) === "OK";
        if (taken) this.#held.set(key, { token }, { ttl: ttlMs });
        return taken;
      },
      () => {
        if (!this.fallback.acquireNow(key, ttlMs)) return false;
        this.#held.set(key, { memory: true }, { ttl: ttlMs });
        return true;
      },
    );
  }

  async release(key: string): Promise<void> {
    const held = this.#held.get(key);
    this.#held.delete(key);
    if (!held) return;
    if (!("token" in held)) return this.fallback.release(key);
    // Away, Redis frees it after its ttl.
    await this.link.either(
      async (redis) => void (await redis.portalRelease(this.keys.lock(key), held.token)),
      () => {},
    );
  }
}

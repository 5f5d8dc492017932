// Revocations shared through Redis: a key per revoked id, announced on a channel; each replica answers from memory.
import { LRUCache } from "lru-cache";
import { expiring, REVOCATIONS_MAX } from "#server/stores/memory-bounds.ts";
import { type RedisKeys, wholeMs } from "#server/stores/redis-keys.ts";
import { type RedisLink, runPipeline } from "#server/stores/redis-link.ts";
import { RedisSync } from "#server/stores/redis-sync.ts";
import { MemoryRevocations, type RevocationStore } from "#server/stores/revocations.ts";

/** Keys read per SCAN step when loading the list. */
const SCAN_COUNT = 1_000;

/**
 * `has` reads this replica's copy only. The copy hears every revocation on the channel, and is loaded again from the
 * keys each time the link comes up (at start and after every outage), which catches whatever the channel missed.
 * A revocation made while Redis cannot answer takes effect here at once and is written and announced when it returns.
 * A Redis that restarted empty (a new run id) is given back every id this replica still refuses.
 */
export class RedisRevocations implements RevocationStore {
  readonly #local: MemoryRevocations;
  /** Revoked here but not yet in Redis: session id → when it was revoked (the app's clock). */
  readonly #pending: LRUCache<string, number>;
  readonly #sync: RedisSync;

  constructor(
    private readonly link: RedisLink,
    private readonly keys: RedisKeys,
    private readonly lifetimeMs: number,
    max = REVOCATIONS_MAX,
  ) {
    this.#local = new MemoryRevocations(lifetimeMs, link.now, max);
    this.#pending = new LRUCache<string, number>(expiring(max, lifetimeMs, link.now));
    link.onMessage((sid) => this.#local.add(sid));
    this.#sync = new RedisSync(link, {
      share: async (restarted) => {
        await this.#share([...this.#pending.keys()]);
        if (restarted) await this.#restore();
      },
      load: () => this.#load(),
    });
  }

  has(sid: string | undefined): boolean {
    return this.#local.has(sid);
  }

  async revoke(sid: string): Promise<void> {
    this.#local.add(sid);
    this.#pending.set(sid, this.link.now());
    if (!this.link.usable) return;
    try {
      await this.#share([sid]);
    } catch (error) {
      this.link.failed(error);
    }
  }

  /** Revocations not yet written to Redis (made while it was unreachable). */
  get pending(): number {
    return this.#pending.size;
  }

  /** Resolves once the list has been loaded from Redis, or after `timeoutMs`; never rejects. */
  ready(timeoutMs: number): Promise<void> {
    return this.#sync.ready(timeoutMs);
  }

  /** Resolves once the sync under way (if any) is over. */
  syncing(): Promise<void> {
    return this.#sync.settled();
  }

  /** Writes what is pending, then loads every revoked id; one at a time, again if asked meanwhile. */
  sync(): Promise<void> {
    return this.#sync.run();
  }

  /**
   * SET with what is left of each id's lifetime, then PUBLISH, one script per id (which a full Redis still runs), in
   * one pipeline per batch.
   */
  async #share(sids: string[]): Promise<void> {
    const now = this.link.now();
    for (let start = 0; start < sids.length; start += SCAN_COUNT) {
      const batch = sids.slice(start, start + SCAN_COUNT);
      const pipeline = this.link.commands.pipeline();
      for (const sid of batch) {
        const left = this.lifetimeMs - (now - (this.#pending.get(sid) ?? now));
        if (left > 0) pipeline.portalRevoke(this.keys.revoked(sid), String(wholeMs(left)), this.keys.channel, sid);
      }
      if (pipeline.length > 0) await runPipeline(pipeline);
      for (const sid of batch) this.#pending.delete(sid);
    }
  }

  /** Writes back every id still refused here, without announcing them: the other replicas hold them already. */
  async #restore(): Promise<void> {
    let pipeline = this.link.commands.pipeline();
    for (const [sid, left] of this.#local.entries()) {
      pipeline.portalRevoke(this.keys.revoked(sid), String(wholeMs(left)), "", "");
      if (pipeline.length < SCAN_COUNT) continue;
      await runPipeline(pipeline);
      pipeline = this.link.commands.pipeline();
    }
    if (pipeline.length > 0) await runPipeline(pipeline);
  }

  async #load(): Promise<void> {
    const skip = this.keys.revoked("").length;
    let cursor = "0";
    do {
      const [next, found] = await this.link.commands.scan(
        cursor,
        "MATCH",
        this.keys.revokedPattern,
        "COUNT",
        SCAN_COUNT,
      );
      cursor = next;
      if (found.length === 0) continue;
      const pipeline = this.link.commands.pipeline();
      for (const key of found) pipeline.pttl(key);
      const lefts = await runPipeline(pipeline);
      found.forEach((key, index) => {
        const left = lefts[index];
        if (typeof left === "number" && left > 0) this.#local.add(key.slice(skip), left);
      });
    } while (cursor !== "0");
  }
}

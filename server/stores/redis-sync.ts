// A store's sync with Redis, for the session ledger, one pass at a time (server/stores/one-pass-at-a-time.ts): write
// what waited here (and everything held, when Redis restarted since the last pass and may have come back empty), then
// load what Redis holds.
import { setTimeout as delay } from "node:timers/promises";
import { OnePassAtATime } from "#server/stores/one-pass-at-a-time.ts";
import { type RedisLink, runIdOf } from "#server/stores/redis-link.ts";

/** What a store writes and reads in a pass. `restarted`: Redis's run id changed since the last pass. */
export type SyncSteps = { share(restarted: boolean): Promise<void>; load(): Promise<void> };

export class RedisSync extends OnePassAtATime {
  /** The Redis server's run id at the last pass. */
  #runId: string | undefined;
  #markLoaded: () => void = () => {};
  readonly #loaded = new Promise<void>((resolve) => {
    this.#markLoaded = resolve;
  });

  constructor(link: RedisLink, steps: SyncSteps) {
    super(link, async () => {
      const runId = await runIdOf(link);
      await steps.share(this.#runId !== undefined && runId !== this.#runId);
      this.#runId = runId;
      await steps.load();
      this.#markLoaded();
      return true;
    });
  }

  /** Resolves once a pass has loaded everything, or after `timeoutMs`; never rejects. */
  async ready(timeoutMs: number): Promise<void> {
    await Promise.race([this.#loaded, delay(timeoutMs, undefined, { ref: false })]);
  }
}

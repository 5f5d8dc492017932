// A store's sync with Redis, one pass at a time, for the session ledger: write what waited
// here (and everything held, when Redis restarted since the last pass and may have come back empty), then load what
// Redis holds. A link that comes up syncs again; a failed pass tells the link, which comes up again later.
import { setTimeout as delay } from "node:timers/promises";
import { OnePassAtATime } from "#server/stores/one-pass-at-a-time.ts";
import { type RedisLink, runIdOf } from "#server/stores/redis-link.ts";

/** What a store writes and reads in a pass. `restarted`: Redis's run id changed since the last pass. */
export type SyncSteps = { share(restarted: boolean): Promise<void>; load(): Promise<void> };

export class RedisSync {
  /** The Redis server's run id at the last pass. */
  #runId: string | undefined;
  #markLoaded: () => void = () => {};
  readonly #loaded = new Promise<void>((resolve) => {
    this.#markLoaded = resolve;
  });
  readonly #pass: OnePassAtATime;

  constructor(link: RedisLink, steps: SyncSteps) {
    this.#pass = new OnePassAtATime(async () => {
      try {
        const runId = await runIdOf(link);
        await steps.share(this.#runId !== undefined && runId !== this.#runId);
        this.#runId = runId;
        await steps.load();
        this.#markLoaded();
        return true;
      } catch (error) {
        link.failed(error);
        return false;
      }
    });
    link.onUp(() => void this.run());
  }

  /** One pass, or one more once the pass under way ends. */
  run(): Promise<void> {
    return this.#pass.run();
  }

  /** Resolves once the pass under way (if any) is over. */
  settled(): Promise<void> {
    return this.#pass.settled();
  }

  /** Resolves once a pass has loaded everything, or after `timeoutMs`; never rejects. */
  async ready(timeoutMs: number): Promise<void> {
    await Promise.race([this.#loaded, delay(timeoutMs, undefined, { ref: false })]);
  }
}

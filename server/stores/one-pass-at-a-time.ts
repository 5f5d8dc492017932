// A catch-up with Redis (a sync, a replay of what waited) run one pass at a time: a call while a pass runs shares its
// promise and asks for one more pass once it ends, so nothing asked meanwhile is missed and no two passes overlap. Each
// time the link comes up, it runs.
import type { RedisLink } from "#server/stores/redis-link.ts";

export class OnePassAtATime {
  #running: Promise<void> | undefined;
  #again = false;

  /**
   * `pass` answers false, or throws (for any reason, told to the link), to end the run: the link's next coming up runs
   * it again, or, for a write Redis refused at its maxmemory (the link stays up), the next step sent.
   */
  constructor(
    protected readonly link: RedisLink,
    private readonly pass: () => Promise<boolean>,
  ) {
    link.onUp(() => void this.run());
  }

  /** One pass, or one more once the pass under way ends. */
  run(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      try {
        do {
          this.#again = false;
          if (!(await this.pass())) return;
        } while (this.#again);
      } catch (error) {
        this.link.failed(error);
      }
    })().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  /** Resolves once the pass under way (if any) is over. */
  async settled(): Promise<void> {
    await this.#running;
  }
}

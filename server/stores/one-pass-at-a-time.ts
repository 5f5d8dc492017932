// A task run one pass at a time (a sync with Redis, a replay of what waited): a call while a pass runs shares its
// promise and asks for one more pass once it ends, so nothing asked meanwhile is missed and no two passes overlap.
export class OnePassAtATime {
  #running: Promise<void> | undefined;
  #again = false;

  /** `pass` answers false to stop early (the link failed: it comes up again later, and that runs it again). */
  constructor(private readonly pass: () => Promise<boolean>) {}

  run(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      do {
        this.#again = false;
        if (!(await this.pass())) return;
      } while (this.#again);
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

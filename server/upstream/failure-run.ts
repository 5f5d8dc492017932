// A run of failures of one kind, logged as two lines: when it starts, and when it ends with its count. A line per
// failure would flood the log at the rate of traffic during an outage; /metrics counts each one.
import type { FastifyBaseLogger } from "fastify";

export type RunLog = Pick<FastifyBaseLogger, "info" | "warn">;

export class FailureRun {
  #failed = 0;

  constructor(
    private readonly log: RunLog,
    /** Said once when failures start, with what the first one was. */
    private readonly started: string,
    /** Said once when one goes through again, with the number that failed. */
    private readonly ended: string,
    /** Said with both lines (which operation, say). */
    private readonly about: Record<string, unknown> = {},
  ) {}

  /** The failures since the last success. */
  get count(): number {
    return this.#failed;
  }

  failed(why: Record<string, unknown>): void {
    if (this.#failed++ === 0) this.log.warn({ ...this.about, ...why }, this.started);
  }

  succeeded(): void {
    if (this.#failed === 0) return;
    this.log.info({ ...this.about, failed: this.#failed }, this.ended);
    this.#failed = 0;
  }
}

/** A run per key (an upstream operation, say), each made when its first failure comes; keys are a known, small set. */
export class FailureRuns {
  readonly #runs = new Map<string, FailureRun>();

  constructor(
    private readonly log: RunLog,
    private readonly started: string,
    private readonly ended: string,
    /** The field that names the key in both lines ("operation"). */
    private readonly keyName: string,
  ) {}

  failed(key: string, why: Record<string, unknown>): void {
    let run = this.#runs.get(key);
    if (!run) {
      run = new FailureRun(this.log, this.started, this.ended, { [this.keyName]: key });
      this.#runs.set(key, run);
    }
    run.failed(why);
  }

  succeeded(key: string): void {
    this.#runs.get(key)?.succeeded();
  }

  /** The failures since the last success of `key`. */
  count(key: string): number {
    return this.#runs.get(key)?.count ?? 0;
  }
}

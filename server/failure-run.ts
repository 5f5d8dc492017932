// A run of failures of one kind, logged as two lines: when it starts, and when it ends with its count. A line per
// failure would flood the log at the rate of traffic during an outage; /metrics counts each one.
import type { FastifyBaseLogger } from "fastify";

export class FailureRun {
  #failed = 0;

  constructor(
    private readonly log: FastifyBaseLogger,
    /** Said once when failures start, with what the first one was. */
    private readonly started: string,
    /** Said once when one goes through again, with the number that failed. */
    private readonly ended: string,
  ) {}

  /** The failures since the last success. */
  get count(): number {
    return this.#failed;
  }

  failed(why: Record<string, unknown>): void {
    if (this.#failed++ === 0) this.log.warn(why, this.started);
  }

  succeeded(): void {
    if (this.#failed === 0) return;
    this.log.info({ failed: this.#failed }, this.ended);
    this.#failed = 0;
  }
}

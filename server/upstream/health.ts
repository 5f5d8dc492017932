// The upstream's state as the readiness probe last found it: a gauge in /metrics, and one log line when it changes.
import type { FastifyBaseLogger } from "fastify";
import type { Metrics } from "#server/plugins/metrics.ts";

export class UpstreamHealth {
  #up: boolean | undefined;

  constructor(
    private readonly metrics: Metrics,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** A probe's result; most repeat the last one and change nothing. */
  probed(up: boolean): void {
    if (up === this.#up) return;
    const first = this.#up === undefined;
    this.#up = up;
    this.metrics.upstreamState(up);
    if (up && !first) this.log.info({ event: "upstream-up" }, "upstream answers again");
    else if (!up)
      this.log.warn(
        { event: "upstream-down" },
        "upstream does not answer its probe: this replica stays ready, its calls answer with their fault messages",
      );
  }
}

// Health for orchestrators: /healthz says the process is alive, /readyz whether this replica can serve (listening,
// keys loaded), and reports the upstream and the shared stores. Neither one's outage makes a replica unready: every
// replica shares them, so taking replicas out of the Service would leave users with no answer at all, not even
// "Action Failed". Both sit outside the session scope: no cookie is read or written.
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "#server/context.ts";
import { faultOf } from "#server/upstream/client.ts";

/** One upstream probe serves every /readyz within this time, so a flood of probes is not a flood upstream. */
const PROBE_KEPT_MS = 5_000;
const PROBE_TIMEOUT_MS = 2_000;
/**
 * /readyz answers within this, whatever the upstream and Redis do: an orchestrator's probe gives up after 1 s by
 * default, and a probe that timed out on every replica would take them all out of the Service. A check still running
 * then is reported as its last known result (the upstream) or as down (Redis: it did not answer in time).
 */
export const READINESS_ANSWER_MS = 300;

const within = <T>(work: Promise<T>, late: T): Promise<T> =>
  Promise.race([work, delay(READINESS_ANSWER_MS, late, { ref: false })]);

export async function healthRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  let probe: { at: number; answer: Promise<boolean> } | undefined;
  /** What the last finished probe found; false before one has. */
  let upstreamUp = false;
  // The typed client: a deadline, a size cap and no redirects (a 3xx is not an answer from the upstream itself).
  const probeUpstream = () =>
    context.upstream
      .HEAD("/pdfs/{fileName}", {
        params: { path: { fileName: "BankHolidays.pdf" } },
        signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      })
      .then(({ response }) => !faultOf(response) && response.status < 300)
      .catch(() => false)
      .then((up) => {
        upstreamUp = up;
        context.upstreamHealth.probed(up);
        return up;
      });

  app.get("/healthz", async (_request, reply) => reply.send({ status: "ok" }));
  app.get("/readyz", async (_request, reply) => {
    const time = context.now();
    // A clock set back ends the probe's time too, rather than keeping it until the clock is back where it was.
    const kept = probe !== undefined && time >= probe.at && time - probe.at <= PROBE_KEPT_MS;
    if (!probe || !kept) probe = { at: time, answer: probeUpstream() };
    const [upstream, stores] = await Promise.all([
      within(probe.answer, upstreamUp),
      within(context.stores.health(), undefined),
    ]);
    const keys = context.config.sessionKeys.length > 0;
    // The upstream and Redis are reported, not required (docs/decisions.md, "Readiness, stopping and faults").
    const ready = keys;
    return reply.code(ready ? 200 : 503).send({
      status: ready ? "ready" : "not ready",
      upstream,
      keys,
      ...(context.stores.backend === "redis"
        ? { redis: stores?.backend === "redis" && stores.up ? "up" : "down" }
        : { stores: "memory" }),
    });
  });
}

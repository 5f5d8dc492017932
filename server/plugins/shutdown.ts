// How the portal stops: the grace a stop has, the share of it queued page visits may use, and the answer a request
// that arrives meanwhile gets.
import type { FastifyInstance } from "fastify";
import { Refusal } from "#server/plugins/errors.ts";
import { serverTexts } from "#server/texts.ts";

/** How long a stop's steps may take. */
export interface StopTimings {
  /** The least grace, from the signal to the forced exit (exit code 1). */
  leastGraceMs: number;
  /** What a stop keeps, at the end of its grace, for closing the stores and exiting. */
  closeReserveMs: number;
  /**
   * Queued page visits are sent until this long after the stop began, whatever the requests in flight took; what is
   * still unsent then is logged and given up, so that closing the stores and exiting fit in the grace with room left.
   */
  visitFlushMs: number;
}

/** Every start's timings (README, "Stopping"). */
export const STOP_TIMINGS: StopTimings = { leastGraceMs: 10_000, closeReserveMs: 3_000, visitFlushMs: 7_000 };

/**
 * The timings scaled down together, so that a test of a stop waits a fraction of them and their order holds; only
 * tests set the scale (TEST_STOP_SCALE, refused in production), every other start has 1.
 */
export const stopTimings = (scale: number): StopTimings => ({
  leastGraceMs: STOP_TIMINGS.leastGraceMs * scale,
  closeReserveMs: STOP_TIMINGS.closeReserveMs * scale,
  visitFlushMs: STOP_TIMINGS.visitFlushMs * scale,
});

/**
 * From the signal to the forced exit: at least the least grace, and long enough for a request in flight to wait
 * for the upstream as long as its deadline allows, so that it is answered (with the upstream's fault at worst) and the
 * stop still exits 0. Keep the orchestrator's own grace above it (deploy/k8s: 30 s).
 */
export const shutdownGraceMs = (upstreamTimeoutMs: number, timings = STOP_TIMINGS): number =>
  Math.max(timings.leastGraceMs, upstreamTimeoutMs + timings.closeReserveMs);

/**
 * Refuses requests that arrive once the stop began (on a connection kept alive) in the portal's own shape, with the
 * security headers, and tells the app's close how long the visits may still take. Install it after the headers.
 */
export function installShutdown(
  app: FastifyInstance,
  visitFlushMs = STOP_TIMINGS.visitFlushMs,
): { visitsMayTake(): number } {
  // `performance.now()`: the visits' deadline runs on real time during the stop, whatever clock a test gives the app.
  let stopping: number | undefined;
  app.addHook("preClose", (done) => {
    stopping = performance.now();
    done();
  });
  app.addHook("onRequest", (_request, _reply, done) => {
    if (stopping === undefined) return done();
    const { code, message } = serverTexts.shuttingDown;
    done(new Refusal(503, message, code, { connection: "close" }));
  });
  // An answer to a request that was in flight when the stop began closes its connection: the server's close waits
  // for every connection, and a browser keeps its own open for minutes, past the grace.
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (stopping !== undefined) reply.header("connection", "close");
    done(null, payload);
  });
  return { visitsMayTake: () => Math.max(0, visitFlushMs - (performance.now() - (stopping ?? performance.now()))) };
}

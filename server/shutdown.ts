// How the portal stops: the grace a stop has, the share of it queued page visits may use, and the answer a request
// that arrives meanwhile gets.
import type { FastifyInstance } from "fastify";
import { Refusal } from "#server/errors.ts";
import { serverTexts } from "#server/texts.ts";

/** What a stop keeps, at the end of its grace, for closing the stores and exiting. */
const CLOSE_RESERVE_MS = 3_000;

/**
 * From the signal to the forced exit (exit code 1): at least 10 s, and long enough for a request in flight to wait
 * for the upstream as long as its deadline allows, so that it is answered (with the upstream's fault at worst) and the
 * stop still exits 0. Keep the orchestrator's own grace above it (deploy/k8s: 30 s).
 */
export const shutdownGraceMs = (upstreamTimeoutMs: number): number =>
  Math.max(10_000, upstreamTimeoutMs + CLOSE_RESERVE_MS);
/**
 * Queued page visits are sent until this long after the stop began, whatever the requests in flight took; what is
 * still unsent then is logged and given up, so that closing the stores and exiting fit in the grace with room left.
 */
export const VISIT_FLUSH_MS = 7_000;

/**
 * Refuses requests that arrive once the stop began (on a connection kept alive) in the portal's own shape, with the
 * security headers, and tells the app's close how long the visits may still take. Install it after the headers.
 */
export function installShutdown(app: FastifyInstance): { visitsMayTake(): number } {
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
  return { visitsMayTake: () => Math.max(0, VISIT_FLUSH_MS - (performance.now() - (stopping ?? performance.now()))) };
}

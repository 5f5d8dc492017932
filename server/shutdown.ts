// How the portal stops: the grace a stop has, the share of it queued page visits may use, and the answer a request
// that arrives meanwhile gets.
import type { FastifyInstance } from "fastify";
import { serverTexts } from "#server/texts.ts";

/** From the signal to the forced exit (exit code 1). */
export const SHUTDOWN_GRACE_MS = 10_000;
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
  app.addHook("onRequest", (_request, reply, done) => {
    if (stopping === undefined) return done();
    const { code, message } = serverTexts.shuttingDown;
    reply.code(503).header("connection", "close").header("cache-control", "no-store").send({ detail: message, code });
  });
  return { visitsMayTake: () => Math.max(0, VISIT_FLUSH_MS - (performance.now() - (stopping ?? performance.now()))) };
}

// A throttled attempt, wherever it is refused: said on its request's log line (an attacker's flood of attempts adds no
// line of its own), one count in portal_sign_in_outcomes_total, and on /api a 429 that says how many seconds to wait.
import type { FastifyRequest } from "fastify";
import type { AppContext } from "#server/context.ts";
import { Refusal } from "#server/errors.ts";
import { noteOnRequestLine } from "#server/logging.ts";
import { serverTexts } from "#server/texts.ts";
import type { ThrottleGroup } from "#server/throttle.ts";

export function countThrottled(context: AppContext, request: FastifyRequest, group: ThrottleGroup): void {
  noteOnRequestLine(request, { event: "throttled", group });
  context.metrics.signIns.inc({ event: group, outcome: "throttled" });
}

/** The /api refusal of a throttled attempt, to throw: 429, with `Retry-After` and the seconds in its words. */
export function tooManyAttempts(wait: number): Refusal {
  const { code, message } = serverTexts.throttled;
  return new Refusal(429, message(wait), code, { "retry-after": String(wait) });
}

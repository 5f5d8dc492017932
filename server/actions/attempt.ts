// A throttled call's attempt, from its taking to what it came to: the one place that says which outcomes count. It is
// taken from the budgets before the call leaves (one a limit holds back is counted, said on its request's log line,
// and answered with the seconds to wait), then settled once by its caller's word for what happened. Which budgets an
// attempt spends, and what a passed one earns, are server/security/throttle.ts's.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "#server/context.ts";
import { Refusal } from "#server/plugins/errors.ts";
import { noteOnRequestLine } from "#server/plugins/logging.ts";
import type { Taken, ThrottleGroup, Whose } from "#server/security/throttle.ts";
import { serverTexts } from "#server/texts.ts";
import type { Fault } from "#server/upstream/answer-reader.ts";

/** What counts against the budgets: failures only, or every call (what sends an e-mail). */
export type Counts = "failures" | "every";

/** A call's attempt: its group's budgets, the person it counts against and whose that person is, and what counts. */
export type AttemptOf = { group: ThrottleGroup; person: string | undefined; whose?: Whose; counts: Counts };

/**
 * What a throttled call came to:
 * - `not-sent`: it never reached the upstream (a check answered in its place, an error before it left);
 * - `checked`: a check refused it whose own work is the cost, or the probe (server/actions/checks.ts, `counts`);
 * - `refused`: the upstream refused it (a 4xx) or failed on it (a 5xx, a fault once it had left);
 * - `failed`: the upstream answered it, and the answer is a failure (no token held, a wrong code);
 * - `session-ended`: the upstream refused the session's token, which is the session's end, not a guess;
 * - `passed`: the upstream accepted it.
 */
export type Outcome = "not-sent" | "checked" | "refused" | "failed" | "session-ended" | "passed";

/** Whether an attempt that came to `outcome` stays counted: every failure does, a success only where every call counts. */
export function stillCounts(outcome: Outcome, counts: Counts): boolean {
  switch (outcome) {
    case "checked":
    case "refused":
    case "failed":
      return true;
    case "not-sent":
    case "session-ended":
      return false;
    case "passed":
      return counts === "every";
  }
}

/** One attempt, taken before its call leaves; settled once, by the first word of what the call came to. */
export class Attempt {
  #settled: boolean;

  constructor(
    private readonly taken: Taken,
    private readonly counts: Counts,
  ) {
    this.#settled = taken.wait !== undefined; // held back: nothing was taken
  }

  /** Seconds to wait when a limit held the attempt back; undefined when the call may go. */
  get wait(): number | undefined {
    return this.taken.wait;
  }

  /** What the call came to: the attempt is given back unless it still counts. A later word changes nothing. */
  async settle(outcome: Outcome): Promise<void> {
    if (this.#settled) return;
    this.#settled = true;
    if (!stillCounts(outcome, this.counts)) await this.taken.giveBack();
  }

  /** An upstream fault: an unreachable upstream never saw the call; any other (a timeout, a bad answer) may have. */
  faulted(fault: Fault): Promise<void> {
    return this.settle(fault === "unreachable" ? "not-sent" : "refused");
  }

  /** The upstream accepted it: settled, and what a passed attempt earns is earned (server/security/throttle.ts). */
  async passed(reply: FastifyReply, device?: string): Promise<void> {
    await this.settle("passed");
    await this.taken.passed(reply, device);
  }
}

/** Takes a call's attempt from its budgets; one a limit holds back is counted and noted on its request's line. */
export async function takeAttempt(context: AppContext, request: FastifyRequest, of: AttemptOf): Promise<Attempt> {
  const taken = await context.throttle.take(of.group, request, of.person, of.whose);
  if (taken.wait !== undefined) {
    // A field of the request's one line: an attacker's flood of attempts adds no line of its own.
    noteOnRequestLine(request, { event: "throttled", group: of.group });
    context.metrics.signIns.inc({ event: of.group, outcome: "throttled" });
  }
  return new Attempt(taken, of.counts);
}

/** The /api refusal of a throttled attempt, to throw: 429, with `Retry-After` and the seconds in its words. */
export function tooManyAttempts(wait: number): Refusal {
  const { code, message } = serverTexts.throttled;
  return new Refusal(429, message(wait), code, { "retry-after": String(wait) });
}

// The password test call (requirements 7.2), the one place a signed-in person's current password is tested: the
// change-password form's test through /api (requirements 4.4) and the check before ending other sessions
// (server/routes/account.ts) both come here. It owns the "password-test" throttle, the upstream call and what the
// answer means; what a right password then allows is each caller's.
import type { FastifyRequest } from "fastify";
import type { components } from "#openapi/schema.ts";
import { personOf } from "#server/account/person.ts";
import { securityEvent } from "#server/account/security-log.ts";
import { type Attempt, takeAttempt, tooManyAttempts } from "#server/actions/attempt.ts";
import { errorShape } from "#server/actions/error-shape.ts";
import type { OwnCall } from "#server/actions/rules.ts";
import type { AppContext } from "#server/context.ts";
import { Refusal } from "#server/plugins/errors.ts";
import { type Auth, sessionId } from "#server/session/fields.ts";
import { refusesToken, tokenRefused } from "#server/session/lifecycle.ts";
import { forgetPasswordTest, recordPasswordTest } from "#server/session/writes.ts";
import { type Fault, faultStatus } from "#server/upstream/answer-reader.ts";
import { bearer, faultOf } from "#server/upstream/client.ts";
import { errorTexts } from "#web/texts/errors.ts";

const OPERATION = "testPassword";

/** What a test came to. */
export type PasswordTest =
  /** The upstream took the password; its answer, for the browser. */
  | { outcome: "right"; status: number }
  /** The upstream refused it (a 4xx): requirements 8's fields of its answer may reach the browser. */
  | { outcome: "wrong"; status: number; body: unknown }
  /** Too many failed tests of this person lately: nothing was sent, and the next may go in `wait` seconds. */
  | { outcome: "throttled"; wait: number }
  /** The upstream refused the session's token (requirements 4.5): the session has ended. */
  | { outcome: "ended" }
  /** The test could not be made: the upstream's 5xx, or a fault (504 past the deadline, else 502). */
  | { outcome: "failed"; status: number };

/**
 * Tests the session's person's current password. Guessing it from a stolen session is as limited as guessing it at
 * sign-in, in the session's own budget (only that person's password opened it; a stolen cookie moves between
 * addresses): a wrong password counts, a right one is given back.
 *
 * The password tested is the session's own user's, whatever the browser names (`named`): an upstream that checked the
 * named user's password rather than the token's would otherwise let a session test anyone's. A link
 * sign-in whose answer named no user sends the name the browser gave.
 */
export async function testPassword(
  context: AppContext,
  request: FastifyRequest,
  auth: Auth,
  password: string,
  named = "",
): Promise<PasswordTest> {
  const person = personOf(auth);
  const attempt = await takeAttempt(context, request, {
    group: "password-test",
    person,
    whose: "session",
    counts: "failures",
  });
  if (attempt.wait !== undefined) return { outcome: "throttled", wait: attempt.wait };
  const answer = await context.upstream
    .POST("/web/{audience}/password/test", {
      params: { path: { audience: auth.site } },
      body: { userId: auth.userName || named, password },
      headers: bearer(auth.token),
    })
    .catch((err: unknown) => ({ err }));
  if ("err" in answer) return unmade(context, request, attempt, "unreachable", answer);
  const { response, error } = answer;
  const status = response.status;
  const fault = faultOf(response);
  if (fault) return unmade(context, request, attempt, fault);
  context.forwardFaults.succeeded(OPERATION);
  if (refusesToken(status)) {
    tokenRefused(request, OPERATION);
    await attempt.settle("session-ended"); // not a wrong password
    return { outcome: "ended" };
  }
  if (status < 200 || status >= 300) {
    await attempt.settle("refused"); // the upstream may have tested it
    // Not tested, or wrong: either cancels a test passed before it. Only a wrong one is in the security activity: a
    // run of upstream faults has its own log lines and metrics.
    forgetPasswordTest(request);
    if (status >= 500) return { outcome: "failed", status };
    securityEvent(request, "password.test-failed", person, sessionId(request));
    return { outcome: "wrong", status, body: error };
  }
  // requirements 7.2: success lets the change proceed; its body is not read (server/upstream/answer-reader.ts).
  await attempt.settle("passed"); // a session's right password earns nothing more (server/security/throttle.ts)
  return { outcome: "right", status };
}

/** An upstream that did not answer in time, could not be reached, or answered more or other than JSON. */
async function unmade(
  context: AppContext,
  request: FastifyRequest,
  attempt: Attempt,
  fault: Fault,
  detail: Record<string, unknown> = {},
): Promise<PasswordTest> {
  // Once when a run of them starts, once when the upstream answers again (as on sign-in): not a line per test.
  context.forwardFaults.failed(OPERATION, { fault, reqId: request.id, ...detail });
  await attempt.faulted(fault);
  forgetPasswordTest(request); // no wrong password, but no test either
  return { outcome: "failed", status: faultStatus(fault) };
}

/**
 * The change-password form's test, through /api: a right password lets the change call go, once, within 5 minutes
 * (server/actions/checks.ts, `checkNewPassword`); the browser gets the answer in requirements 8's shapes.
 */
export const answerPasswordTest: OwnCall = async ({ context, request, input }) => {
  const { userId, password } = input.body as components["schemas"]["PasswordTestRequest"];
  const test = await testPassword(context, request, request.auth as Auth, password, userId);
  switch (test.outcome) {
    case "right":
      recordPasswordTest(request, context.now());
      return { status: 200, body: {} }; // the portal's own answer: the upstream's body is not read (requirements 7.2)
    case "wrong":
      return { status: test.status, body: errorShape(test.status, test.body) };
    case "throttled":
      throw tooManyAttempts(test.wait);
    case "ended":
      throw new Refusal(401, errorTexts.sessionExpired);
    case "failed":
      return { status: test.status, body: {} };
  }
};

// A forwarded call's answer: read whole within its size cap and deadline, checked against the declared shape, its
// row's effect on the session applied, and reshaped for the browser; and the faults (too slow, unreachable, too
// large, not JSON, another shape), each answered in requirements 8's terms and logged when a run of them starts. What
// of an answer is read is server/upstream/answer-reader.ts's.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Call } from "#server/api/admit.ts";
import type { Shaped } from "#server/api/effects.ts";
import { errorShape } from "#server/api/error-shape.ts";
import type { ProxiedRule } from "#server/api/rules.ts";
import type { AppContext } from "#server/context.ts";
import { Refusal } from "#server/plugins/errors.ts";
import { refusesToken, tokenRefused } from "#server/session/lifecycle.ts";
import { type AnswerStream, letGo, readAnswer } from "#server/upstream/answer-reader.ts";
import { answerProblem, type ShapeProblem } from "#server/upstream/answer-shape.ts";
import { type Fault, faultOfError, faultStatus } from "#server/upstream/read-capped.ts";
import { answerCodes, errorTexts } from "#web/texts/errors.ts";

export type UpstreamAnswer = { statusCode: number; headers: Record<string, unknown>; stream: NodeJS.ReadableStream };

/** The upstream's answer to an admitted call, read and checked before anything of it reaches the session or browser. */
export async function answered(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  answer: UpstreamAnswer,
) {
  const call = request.upstreamCall as Call;
  const { operation, rule } = call;
  const status = answer.statusCode;
  const stream = answer.stream as unknown as AnswerStream;
  // A status line the proxy could not pass on was answered as a fault already (`proxyFault`): nothing more to say.
  if (faulted.has(request)) return letGo(stream);
  let body: unknown;
  try {
    const head = { status, headers: answer.headers, bodiless: status === 204 || status === 304 };
    body = await readAnswer(head, stream, operation.reads, call.signal);
  } catch (error) {
    return fault(context, request, reply, faultOfError(error));
  } finally {
    letGo(stream);
  }
  // Nothing of a success answer reaches the session before it has the declared shape: another shape is a fault.
  const problem = status >= 200 && status < 300 ? answerProblem(operation, body) : undefined;
  if (problem) return fault(context, request, reply, "wrong-shape", problem);
  context.metrics.upstreamCall(operation.operationId, status, (performance.now() - call.started) / 1000);
  context.forwardFaults.succeeded(operation.operationId);

  if (refusesToken(status)) return refused(context, request, reply, call);
  if (status < 200 || status >= 300) {
    await call.attempt?.settle("refused");
    if (status < 500) rule.onRefusal?.({ context, request });
    await failed(request, rule);
    return reply.code(status).send(errorShape(status, body));
  }
  const shaped: Shaped = rule.effect ? await rule.effect({ context, request, body }) : { body: {} }; // not read
  if (shaped.failed) await call.attempt?.settle("failed");
  else await call.attempt?.passed(reply);
  // The browser gets the portal's own answer: 200 for any success (a 204 too), with the body the effect made.
  return reply
    .code(shaped.status ?? 200)
    .headers(shaped.headers ?? {})
    .send(shaped.body ?? {});
}

/** The requests whose call was answered as a fault: each is logged and answered once. */
const faulted = new WeakSet<FastifyRequest>();

/** An upstream that did not answer in time, could not be reached, or answered more or other than JSON. */
export async function fault(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: Fault,
  shape?: ShapeProblem,
) {
  if (faulted.has(request)) return;
  faulted.add(request);
  const call = request.upstreamCall;
  const operation = call?.operation.operationId ?? "unknown";
  if (call) context.metrics.upstreamCall(operation, kind, (performance.now() - call.started) / 1000);
  // Once when a run of them starts, once when the operation is answered again: not a line per request.
  context.forwardFaults.failed(operation, { fault: kind, reqId: request.id, ...shape });
  if (call) {
    await call.attempt?.faulted(kind);
    await failed(request, call.rule);
  }
  if (!reply.sent) reply.code(faultStatus(kind)).send({});
}

/**
 * requirements 4.5 and 8: a 401's status line is the refusal, whatever its body. A call made with a token ends its
 * session; one made without (a sign-in, a link, a reset) has no session to end, so it fails with section 8's text in
 * place, and a sign-in refused so is a failed sign-in (docs/decisions.md). Either answer is a `Refusal` handed to
 * `reply.send`, which gives it to the one error handler (server/errors.ts), as a thrown one would be: this runs in the
 * proxy's answer callback, where a throw would reach no handler.
 */
async function refused(context: AppContext, request: FastifyRequest, reply: FastifyReply, call: Call) {
  if (call.token) {
    tokenRefused(request, call.operation.operationId);
    await call.attempt?.settle("session-ended");
    return reply.send(new Refusal(401, errorTexts.sessionExpired));
  }
  await call.attempt?.settle("refused");
  call.rule.onRefusal?.({ context, request });
  await failed(request, call.rule);
  return reply.send(new Refusal(401, errorTexts.sessionExpired, answerCodes.refusedUnsigned));
}

/** What a failed call does to the session: a failed generate ends the pending sign-in. */
async function failed(request: FastifyRequest, rule: ProxiedRule) {
  rule.onFailure?.(request);
}

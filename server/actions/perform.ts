// The one way an operation a person causes reaches the upstream, for an island's /api call and a form posted without
// script alike: its input checked as the description declares it, its row of the rules table applied in order (who
// may call and for which site, how often, what else is checked), the call made by the one typed client
// (server/upstream/client.ts: deadline, size cap, fault answers, metrics), the answer read as requirements 4, 7 and 8
// read it, and its effect on the session. What the browser gets is the portal's own answer, never the upstream's body.
import type { FastifyReply, FastifyRequest } from "fastify";
import { takeAttempt, tooManyAttempts } from "#server/actions/attempt.ts";
import { errorShape } from "#server/actions/error-shape.ts";
import {
  type ActionRule,
  type Answer,
  type Call,
  type Input,
  type Needs,
  rules,
  type Shaped,
  type SuccessOf,
} from "#server/actions/rules.ts";
import type { AppContext } from "#server/context.ts";
import { invalidRequest, problem, Refusal } from "#server/plugins/errors.ts";
import { DEVICE_ID_HEADER, deviceOfValidation } from "#server/security/device-cookie.ts";
import { endedBy, sessionId } from "#server/session/fields.ts";
import { expire, refusesToken, tokenRefused } from "#server/session/lifecycle.ts";
import { serverTexts } from "#server/texts.ts";
import { answerProblem, type Fault, faultStatus, type ShapeProblem } from "#server/upstream/answer-reader.ts";
import { bearer, callOperation, faultOf } from "#server/upstream/client.ts";
import type { Operation, OperationId } from "#server/upstream/operations.ts";
import { missingName, tooLongField, trimNames } from "#web/protocol/typed-names.ts";
import { answerCodes, errorTexts } from "#web/texts/errors.ts";

/**
 * Performs `operationId` for this request's session with `given` as its input. A refusal on the way (who, how often,
 * the input) is an answer like any other, so a form reads the same answer its island would.
 */
export async function perform(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  operationId: OperationId,
  given: Input,
): Promise<Answer> {
  const operation = context.operationById.get(operationId) as Operation;
  const rule = rules[operationId];
  try {
    if (!rule.islands) throw new Refusal(404, errorTexts.endpointNotFound);
    const input = checkedInput(request, operation, given);
    refuseCaller(rule.needs, request, operation, input);
    if ("answeredBy" in rule) return await rule.answeredBy({ context, request, input });
    return await forward(context, request, reply, operation, rule, input);
  } catch (error) {
    if (error instanceof Refusal) return { status: error.statusCode, body: error.body, headers: error.headers };
    throw error;
  }
}

/**
 * The input as the description declares it. A name typed with blanks around it names the same account as the form's
 * (web/protocol/typed-names.ts): trimmed before the schema reads it, so the throttle, the call and the session all see
 * one spelling. A required name of only blanks, and a field longer than the upstream takes, are refused in words
 * before the schema would refuse them as section 8's bare "Action Failed". A path parameter never moves the upstream
 * path: URLs resolve `.`, `..` and `%2e%2e` segments, and an upstream may decode `%2F` once more, so a value with a dot
 * segment, a separator or a `%` is no path of this API.
 */
function checkedInput(request: FastifyRequest, operation: Operation, given: Input): Input {
  const params = given.params;
  if (Object.values(params).some((value) => /^\.{1,2}$/.test(value) || /[/\\%]/.test(value)))
    throw new Refusal(404, errorTexts.endpointNotFound);
  // An operation the description declares without a body sends none, whatever the browser sent.
  const body = operation.body ? (trimNames(given.body) as Input["body"]) : undefined;
  const named = body === undefined ? undefined : (missingName(body) ?? tooLongField(body));
  if (named !== undefined) throw new Refusal(400, named);
  valid(request, "params", operation.params, params);
  valid(request, "querystring", operation.query ?? NO_QUERY, given.query); // an undeclared parameter is refused
  if (operation.body) valid(request, "body", operation.body, body);
  return { ...given, body };
}

const NO_QUERY = { type: "object", additionalProperties: false } as const;

/** The part checked by its schema with the app's validator, refused naming the field (`params/code`), as Fastify's. */
function valid(request: FastifyRequest, part: string, schema: object | undefined, value: unknown): void {
  if (!schema) return;
  const validate = request.compileValidationSchema(schema, part as "body");
  if (validate(value)) return;
  const first = validate.errors?.[0];
  const what = `${part}${first?.instancePath ?? ""} ${first?.message ?? "is not valid"}`;
  throw new Refusal(400, "", undefined, {}, invalidRequest(what));
}

/**
 * Who may call, and for which site: throws the refusal when this request may not. The site is any parameter the
 * description gives the sites' values (the operation's `audienceParams`), whatever its name.
 */
export function refuseCaller(needs: Needs, request: FastifyRequest, operation: Operation, input: Input): void {
  if (needs === "anyone") return;
  const auth = request.auth;
  // Not signed in (or not yet): refused, and nothing is written; a pending sign-in goes on with its MFA step.
  if (!auth || auth.stage !== needs) {
    // The island tells a sign-in ended by wrong codes from an expired session, and stays to say why.
    const exhausted = !auth && endedBy(request) === "mfa-attempts";
    throw new Refusal(401, errorTexts.sessionExpired, exhausted ? serverTexts.mfaAttemptsExhausted.code : undefined);
  }
  for (const parameter of operation.audienceParams) {
    const named = (parameter.in === "path" ? input.params : input.query)[parameter.name];
    if (named !== undefined && named !== auth.site) throw new Refusal(403, errorTexts.accessDenied);
  }
}

/** The row's throttle and check, then the call, then what its answer means; whatever it came to, its lock is let go. */
async function forward(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  operation: Operation,
  rule: ActionRule,
  input: Input,
): Promise<Answer> {
  const token = rule.needs === "anyone" ? undefined : request.auth?.token;
  const call: Call = { operation, input, token, sid: sessionId(request), attempt: undefined };
  try {
    if (rule.throttle) {
      const { person, ...of } = rule.throttle;
      call.attempt = await takeAttempt(context, request, { ...of, person: person?.(call, request) });
      // Refused for how often: the call failed as surely as a fault would, and the session hears it alike.
      if (call.attempt.wait !== undefined) {
        rule.onFailure?.(request);
        throw tooManyAttempts(call.attempt.wait);
      }
    }
    const instead = await rule.check?.({ context, request, call });
    if (instead) {
      await call.attempt?.settle(instead.counts ? "checked" : "not-sent");
      return { status: instead.status, body: instead.body, headers: instead.headers ?? {} };
    }
    if (rule.sendsDevice) await deviceOfValidation(context, request, call); // the call carries it from now on
    return await answerOf(context, request, reply, call, rule);
  } finally {
    // A lock the call holds is free before its answer leaves: a client that sends its next code as soon as it reads
    // this answer, on any replica, must not find it still held.
    await call.release?.();
    // An attempt nothing settled never reached the upstream (an error before it left): it was not an attempt.
    await call.attempt?.settle("not-sent");
  }
}

async function answerOf(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  call: Call,
  rule: ActionRule,
): Promise<Answer> {
  const { operation, input } = call;
  const headers: Record<string, string> = { ...(call.token ? bearer(call.token) : {}) };
  if (call.device) headers[DEVICE_ID_HEADER] = call.device;
  const { response, data, error } = await callOperation(context.upstream, operation.method, operation.path, {
    params: { path: input.params, query: input.query },
    body: input.body,
    headers,
  });
  const kind = faultOf(response);
  if (kind) return fault(context, request, call, rule, kind);
  const status = response.status;
  const ok = status >= 200 && status < 300;
  // Nothing of a success answer reaches the session before it has the declared shape: another shape is a fault.
  const shape = ok ? answerProblem(operation, data) : undefined;
  if (shape) return fault(context, request, call, rule, "wrong-shape", shape);
  context.forwardFaults.succeeded(operation.operationId);
  if (refusesToken(status)) return refused(context, request, call, rule);
  if (!ok) {
    await call.attempt?.settle("refused");
    if (status < 500) rule.onRefusal?.({ context, request, call });
    rule.onFailure?.(request);
    return { status, body: errorShape(status, error) };
  }
  let shaped: Shaped;
  try {
    shaped = rule.effect
      ? await rule.effect({ context, request, reply, call, data: data as SuccessOf<OperationId> })
      : { body: {} };
  } catch (error) {
    request.log.error({ err: error, operation: operation.operationId }, "upstream answer not handled");
    // A session this call began half-way (a sign-in held, a code passed) is not handed to the browser.
    if (sessionId(request) !== call.sid) expire(request, "signed-out");
    return { status: 502, body: {} };
  }
  if (shaped.failed) await call.attempt?.settle("failed");
  else await call.attempt?.passed(reply, call.device);
  // The browser gets the portal's own answer: 200 for any success (a 204 too), with the body the effect made.
  return { status: shaped.status ?? 200, body: shaped.body ?? {}, headers: shaped.headers ?? {} };
}

/** An upstream that did not answer in time, could not be reached, or answered more or other than declared. */
async function fault(
  context: AppContext,
  request: FastifyRequest,
  call: Call,
  rule: ActionRule,
  kind: Fault,
  shape?: ShapeProblem,
): Promise<Answer> {
  // Once when a run of them starts, once when the operation is answered again: not a line per request.
  context.forwardFaults.failed(call.operation.operationId, { fault: kind, reqId: request.id, ...shape });
  await call.attempt?.faulted(kind);
  rule.onFailure?.(request);
  return { status: faultStatus(kind), body: {} };
}

/**
 * requirements 4.5 and 8: a 401's status line is the refusal, whatever its body. A call made with a token ends its
 * session; one made without (a sign-in, a link, a reset) has no session to end, so it fails with section 8's text in
 * place, and a sign-in refused so is a failed sign-in (docs/decisions.md).
 */
async function refused(context: AppContext, request: FastifyRequest, call: Call, rule: ActionRule): Promise<Answer> {
  if (call.token) {
    tokenRefused(request, call.operation.operationId);
    await call.attempt?.settle("session-ended");
    return { status: 401, body: problem(errorTexts.sessionExpired) };
  }
  await call.attempt?.settle("refused");
  rule.onRefusal?.({ context, request, call });
  rule.onFailure?.(request);
  return { status: 401, body: problem(errorTexts.sessionExpired, answerCodes.refusedUnsigned) };
}

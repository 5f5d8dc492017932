// Before a forwarded call leaves: who may make it and for which site, how often (its row's throttle), its row's check;
// then what it carries upstream, a fresh set of headers with the session's token.
import type { FastifyReply, FastifyRequest } from "fastify";
import { type Attempt, takeAttempt, tooManyAttempts } from "#server/api/attempt.ts";
import { DEVICE_ID_HEADER, deviceOfValidation } from "#server/api/mfa-device.ts";
import { type Needs, type ProxiedRule, rules } from "#server/api/rules.ts";
import type { AppContext } from "#server/context.ts";
import { Refusal } from "#server/plugins/errors.ts";
import { endedBy, sessionId } from "#server/session/standing.ts";
import { serverTexts } from "#server/texts.ts";
import { ACCEPT_ENCODING } from "#server/upstream/answer-reader.ts";
import type { Operation } from "#server/upstream/operations.ts";
import { errorTexts } from "#web/texts/errors.ts";

/** A forwarded call, once admitted: what its answer is read against. */
export type Call = {
  operation: Operation;
  rule: ProxiedRule;
  token: string | undefined;
  signal: AbortSignal;
  /** `performance.now()` as the call left: its duration for the metrics, no session's or store's time. */
  started: number;
  /** The session's id when the call left: an answer that began another session changed it. */
  sid: string | undefined;
  /** The throttled attempt this call took, settled by what the call came to (server/api/attempt.ts). */
  attempt: Attempt | undefined;
  /** The device id the call carries upstream, when its row sends one (server/api/mfa-device.ts). */
  device?: string | undefined;
  /** Whether that id was of a browser the person trusts: a pass then skipped typing a code. */
  trusted?: boolean | undefined;
};
export type Params = Record<string, string>;

declare module "fastify" {
  interface FastifyRequest {
    /** The upstream call this request makes, once it is admitted. */
    upstreamCall: Call | undefined;
  }
}

/**
 * A path parameter never moves the upstream path: URLs resolve `.`, `..` and `%2e%2e` segments, and an upstream may
 * decode `%2F` once more, so a value with a dot segment, a separator or a `%` is not a path of this API.
 */
export function refuseMovingParams(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) {
  const params = Object.values((request.params ?? {}) as Params);
  if (params.some((value) => /^\.{1,2}$/.test(value) || /[/\\%]/.test(value)))
    done(new Refusal(404, errorTexts.endpointNotFound));
  else done();
}

/**
 * Who may call, and for which site: throws the refusal when this request may not. The site is any parameter the
 * description gives the sites' values (the operation's `audienceParams`), whatever its name.
 */
export function refuseCaller(needs: Needs, request: FastifyRequest, operation: Operation): void {
  if (needs === "anyone") return;
  const auth = request.auth;
  // Not signed in (or not yet): refused, and nothing is written; a pending sign-in goes on with its MFA step.
  if (!auth || auth.stage !== needs) {
    // The island tells a sign-in ended by wrong codes from an expired session, and stays to say why.
    const exhausted = !auth && endedBy(request) === "mfa-attempts";
    throw new Refusal(401, errorTexts.sessionExpired, exhausted ? serverTexts.mfaAttemptsExhausted.code : undefined);
  }
  for (const parameter of operation.audienceParams) {
    const named = ((parameter.in === "path" ? request.params : request.query) as Params | undefined)?.[parameter.name];
    if (named !== undefined && named !== auth.site) throw new Refusal(403, errorTexts.accessDenied);
  }
}

/** The rules of the operation's row, in order: who, whose site, how often, what else; then the call may leave. */
export async function admit(context: AppContext, operation: Operation, request: FastifyRequest, reply: FastifyReply) {
  const rule = rules[operation.operationId] as ProxiedRule;
  refuseCaller(rule.needs, request, operation);
  const token = rule.needs === "anyone" ? undefined : request.auth?.token;
  let attempt: Attempt | undefined;
  if (rule.throttle) {
    const { group, person, whose, counts } = rule.throttle;
    attempt = await takeAttempt(context, request, { group, person: person?.(request), whose, counts });
    if (attempt.wait !== undefined) throw tooManyAttempts(attempt.wait);
  }
  const answer = await rule.check?.({ context, request });
  if (answer) {
    await attempt?.settle(answer.counts ? "checked" : "not-sent");
    return reply
      .code(answer.status)
      .headers(answer.headers ?? {})
      .send(answer.body);
  }
  // An operation the spec declares without a body sends none, whatever the browser sent.
  if (!operation.body) request.body = undefined;
  const signal = AbortSignal.timeout(context.config.upstreamTimeoutMs);
  const sid = sessionId(request);
  const { device, trusted } = (rule.sendsDevice && (await deviceOfValidation(context, request))) || {};
  request.upstreamCall = { operation, rule, token, sid, signal, started: performance.now(), attempt, device, trusted };
}

/** A fresh set of headers: none of the browser's (cookies, authorization, forwarding, hop-by-hop) go upstream. */
export function upstreamHeaders(request: FastifyRequest, headers: Record<string, unknown>) {
  const call = request.upstreamCall;
  const out: Record<string, string> = {
    host: String(headers.host),
    accept: "application/json",
    "accept-encoding": ACCEPT_ENCODING, // what the portal reads is what was sent (server/upstream/answer-reader.ts)
  };
  if (call?.operation.body && headers["content-length"] !== undefined) {
    out["content-type"] = "application/json";
    out["content-length"] = String(headers["content-length"]);
  }
  if (call?.token) out.authorization = `Bearer ${call.token}`;
  if (call?.device) out[DEVICE_ID_HEADER] = call.device;
  return out;
}

// `/api`: the upstream operations the islands use, forwarded by @fastify/http-proxy with the session's token (never
// the browser's), each checked by its row of the rules table and openapi/portal.yaml's schema before it leaves, and
// its answer read within a size cap and a deadline before it reaches the browser. A row with `answeredBy` is answered
// by the portal's own typed call instead (the password test, shared with ending other sessions).
import httpProxy from "@fastify/http-proxy";
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import type { Shaped } from "#server/api/answers.ts";
import { errorShape } from "#server/api/error-shape.ts";
import { type Needs, type OwnCallRule, type ProxiedRule, rules } from "#server/api/rules.ts";
import { countThrottled, tooManyAttempts } from "#server/api/throttled.ts";
import { hasBody, isJson } from "#server/content-type.ts";
import type { AppContext } from "#server/context.ts";
import { invalidRequest } from "#server/errors.ts";
import { endedBy, expire, sessionId } from "#server/session/data.ts";
import { serverTexts } from "#server/texts.ts";
import type { Attempt } from "#server/throttle.ts";
import { answerProblem, type ShapeProblem } from "#server/upstream/answer-shape.ts";
import { type Operation, routerPath } from "#server/upstream/operations.ts";
import {
  type Fault,
  MAX_JSON_ANSWER_BYTES,
  parseJsonAnswer,
  readCapped,
  UpstreamFault,
} from "#server/upstream/read-capped.ts";
import { CSRF_HEADER } from "#web/api/held.ts";
import { errorTexts } from "#web/texts/errors.ts";

type Call = {
  operation: Operation;
  rule: ProxiedRule;
  token: string | undefined;
  signal: AbortSignal;
  started: number;
  /** The session's id when the call left: an answer that began another session changed it. */
  sid: string | undefined;
  /** The throttled attempt this call reserved: kept when it counts, given back when it does not. */
  attempt: Attempt | undefined;
};
type Params = Record<string, string>;

declare module "fastify" {
  interface FastifyRequest {
    /** The upstream call this request makes, once it is admitted. */
    upstreamCall: Call | undefined;
  }
  interface FastifyContextConfig {
    operationId?: string;
  }
}

const csrfHeader = CSRF_HEADER.toLowerCase();

export async function apiPlugin(api: FastifyInstance, { context }: { context: AppContext }): Promise<void> {
  const forwarded = context.operations.filter((operation) => rules[operation.operationId].forwarded);
  const byRoute = new Map(
    forwarded.map((operation) => [`${operation.method} /api${routerPath(operation.path)}`, operation]),
  );
  const byId = new Map<string | undefined, Operation>(forwarded.map((operation) => [operation.operationId, operation]));
  const operationOf = (request: FastifyRequest) => byId.get(request.routeOptions.config.operationId) as Operation;
  const ownCall = (operation: Operation) => "answeredBy" in rules[operation.operationId];
  const proxied = forwarded.filter((operation) => !ownCall(operation));

  api.decorateRequest("upstreamCall", undefined);
  api.decorateRequest("beforeAnswer", undefined);

  // An island's call carries the portal's header: a form or a link from another site cannot add it.
  api.addHook("onRequest", (request, reply, done) => {
    if (request.method !== "GET" && request.headers[csrfHeader] !== "1")
      reply.code(403).send({ detail: errorTexts.accessDenied });
    else done();
  });
  // The islands send JSON: a body of another kind (a form, which the session's scope could parse) or a malformed
  // type is refused before it is read, by the parser the forward uses.
  api.addHook("preParsing", (request, reply, payload, done) => {
    if (hasBody(request.headers) && !isJson(request.headers["content-type"]))
      reply.code(415).send(invalidRequest(serverTexts.jsonOnly.message));
    else done(null, payload);
  });
  // Callback hooks, here and below: an async hook costs a promise and a microtask on every call.
  // A lock the call holds is free before its answer leaves: a client that sends its next code as soon as it reads
  // this answer, on any replica, must not find it still held.
  api.addHook("onSend", (request, _reply, payload, done) => {
    const release = request.beforeAnswer;
    if (!release) return done(null, payload);
    request.beforeAnswer = undefined;
    release().then(
      () => done(null, payload),
      () => done(null, payload),
    );
  });
  // An answer that was never sent (the browser went away first) frees it too.
  api.addHook("onResponse", (request, _reply, done) => {
    const release = request.beforeAnswer;
    request.beforeAnswer = undefined;
    void release?.();
    // An attempt that never reached the upstream (a fault before it left, an error) was not an attempt.
    void request.upstreamCall?.attempt?.giveBack();
    done();
  });

  // Each forwarded route takes its operation's schemas: path, query (none declared: none taken) and body.
  api.addHook("onRoute", (route: RouteOptions) => {
    const method = [route.method].flat()[0];
    const operation = byRoute.get(`${method} ${route.url}`);
    if (!operation) return;
    route.config = { ...(route.config ?? {}), operationId: operation.operationId };
    route.schema = {
      ...(operation.params ? { params: operation.params } : {}),
      querystring: operation.query ?? { type: "object", additionalProperties: false },
      ...(operation.body ? { body: operation.body } : {}),
    };
    route.onRequest = [refuseMovingParams];
  });

  const methods = [...new Set(proxied.map((operation) => operation.method))];
  for (const method of methods) {
    await api.register(httpProxy, {
      upstream: context.upstreamUrl,
      routes: proxied.filter((operation) => operation.method === method).map((operation) => routerPath(operation.path)),
      httpMethods: [method],
      proxyPayloads: false, // bodies are parsed, so the schema checks them before they leave
      preHandler: (request, reply) => {
        const req = request as FastifyRequest;
        return admit(context, operationOf(req), req, reply as FastifyReply);
      },
      // The path the route matched, each segment decoded once and encoded again: `validat%65` leaves as `validate`.
      preRewrite: (url) =>
        (url.split("?", 1)[0] ?? "")
          .split("/")
          .map((segment) => encodeURIComponent(decodeURIComponent(segment)))
          .join("/"),
      disableRequestLogging: true,
      retryMethods: [],
      undici: { headersTimeout: context.config.upstreamTimeoutMs, bodyTimeout: context.config.upstreamTimeoutMs },
      replyOptions: {
        // Only the declared query parameters, as the schema checked them.
        queryString: (_search, _url, request) => new URLSearchParams(request.query as Params).toString(),
        rewriteRequestHeaders: (request, headers) => upstreamHeaders(request as FastifyRequest, headers),
        rewriteHeaders: () => ({}), // none of the upstream's headers reach the browser
        onResponse: (request, reply, answer) => {
          answered(
            context,
            request as FastifyRequest,
            reply as FastifyReply,
            answer as unknown as UpstreamAnswer,
          ).catch((error: unknown) => {
            request.log.error({ err: error }, "upstream answer not handled");
            // A session this call began half-way is not handed to the browser.
            const req = request as FastifyRequest;
            if (sessionId(req) !== req.upstreamCall?.sid) expire(req, "signed-out");
            if (!reply.sent) reply.code(502).send({});
          });
        },
        onError: (reply, { error }) => {
          const timedOut = (error as { statusCode?: number }).statusCode === 504;
          void fault(
            context,
            reply.request as FastifyRequest,
            reply as FastifyReply,
            timedOut ? "timeout" : "unreachable",
          );
        },
      },
    });
  }

  // An operation answered by the portal's own call (its row's `answeredBy`), once its row's caller may make it.
  for (const operation of forwarded.filter(ownCall)) {
    const rule = rules[operation.operationId] as OwnCallRule;
    api.route({
      method: operation.method,
      url: routerPath(operation.path),
      handler: async (request, reply) =>
        refusedCaller(rule.needs, request, reply) ?? rule.answeredBy({ context, request, reply }),
    });
  }

  // Anything else under /api never reaches the upstream: a known path with another method is 405, the rest 404.
  const patterns = forwarded.map((operation) => ({
    method: operation.method,
    pattern: new RegExp(`^/api${operation.path.replace(/\{\w+\}/g, "[^/]+")}$`),
  }));
  api.all("/*", async (request, reply) => {
    const path = request.url.split("?")[0] ?? "";
    const allowed = patterns.filter(({ pattern }) => pattern.test(path)).map(({ method }) => method);
    if (allowed.length > 0)
      return reply.code(405).header("allow", allowed.join(", ")).send({ detail: serverTexts.methodNotAllowed.message });
    return reply.code(404).send({ detail: errorTexts.endpointNotFound });
  });
}

/**
 * A path parameter never moves the upstream path: URLs resolve `.`, `..` and `%2e%2e` segments, and an upstream may
 * decode `%2F` once more, so a value with a dot segment, a separator or a `%` is not a path of this API.
 */
function refuseMovingParams(request: FastifyRequest, reply: FastifyReply, done: () => void) {
  const params = Object.values((request.params ?? {}) as Params);
  if (params.some((value) => /^\.{1,2}$/.test(value) || /[/\\%]/.test(value)))
    reply.code(404).send({ detail: errorTexts.endpointNotFound });
  else done();
}

/** Who may call, and for which site: the refusal, sent, when this request may not; else nothing. */
function refusedCaller(needs: Needs, request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
  if (needs === "anyone") return undefined;
  const auth = request.auth;
  // Not signed in (or not yet): refused, and nothing is written; a pending sign-in goes on with its MFA step.
  if (!auth || auth.stage !== needs) {
    // The island tells a sign-in ended by wrong codes from an expired session, and stays to say why.
    const exhausted = !auth && endedBy(request) === "mfa-attempts";
    const code = exhausted ? { code: serverTexts.mfaAttemptsExhausted.code } : {};
    return reply.code(401).send({ detail: errorTexts.sessionExpired, ...code });
  }
  const named = (request.params as Params).site ?? (request.params as Params).audience;
  if (named !== undefined && named !== auth.site) return reply.code(403).send({ detail: errorTexts.accessDenied });
  return undefined;
}

/** The rules of the operation's row, in order: who, whose site, how often, what else; then the call may leave. */
async function admit(context: AppContext, operation: Operation, request: FastifyRequest, reply: FastifyReply) {
  const rule = rules[operation.operationId] as ProxiedRule;
  const refused = refusedCaller(rule.needs, request, reply);
  if (refused) return refused;
  const token = rule.needs === "anyone" ? undefined : request.auth?.token;
  let attempt: Attempt | undefined;
  if (rule.throttle) {
    const { group, person, whose } = rule.throttle;
    attempt = await context.throttle.take(group, request, person?.(request), whose);
    const { wait } = attempt;
    if (wait !== undefined) {
      countThrottled(context, request, group);
      return tooManyAttempts(reply, wait);
    }
  }
  const answer = await rule.check?.({ context, request });
  if (answer) {
    await attempt?.giveBack(); // answered here: no attempt reached the upstream
    return reply
      .code(answer.status)
      .headers(answer.headers ?? {})
      .send(answer.body);
  }
  // An operation the spec declares without a body sends none, whatever the browser sent.
  if (!operation.body) request.body = undefined;
  const signal = AbortSignal.timeout(context.config.upstreamTimeoutMs);
  const sid = sessionId(request);
  request.upstreamCall = { operation, rule, token, sid, signal, started: performance.now(), attempt };
}

/** A fresh set of headers: none of the browser's (cookies, authorization, forwarding, hop-by-hop) go upstream. */
function upstreamHeaders(request: FastifyRequest, headers: Record<string, unknown>) {
  const call = request.upstreamCall;
  const out: Record<string, string> = { host: String(headers.host), accept: "application/json" };
  if (call?.operation.body && headers["content-length"] !== undefined) {
    out["content-type"] = "application/json";
    out["content-length"] = String(headers["content-length"]);
  }
  if (call?.token) out.authorization = `Bearer ${call.token}`;
  return out;
}

type UpstreamAnswer = { statusCode: number; headers: Record<string, unknown>; stream: NodeJS.ReadableStream };

async function answered(context: AppContext, request: FastifyRequest, reply: FastifyReply, answer: UpstreamAnswer) {
  const call = request.upstreamCall as Call;
  const { operation, rule } = call;
  const status = answer.statusCode;
  const contentType = String(answer.headers["content-type"] ?? "");
  let raw: Buffer;
  let body: unknown;
  try {
    raw = await readCapped(
      answer.stream as AsyncIterable<Uint8Array>,
      MAX_JSON_ANSWER_BYTES,
      call.signal,
      answer.headers["content-length"] as string | undefined,
    );
    if (status < 200 || status >= 400) body = tryJson(raw);
    else if (status >= 300)
      throw new UpstreamFault("not-json"); // the API answers, it never redirects
    else body = parseJsonAnswer(raw, contentType);
  } catch (error) {
    (answer.stream as NodeJS.ReadableStream & { destroy(): void }).destroy();
    return fault(context, request, reply, error instanceof UpstreamFault ? error.fault : "unreachable");
  }
  // Nothing of a success answer reaches the session before it has the declared shape: another shape is a fault.
  const problem = status >= 200 && status < 300 ? answerProblem(operation, body) : undefined;
  if (problem) return fault(context, request, reply, "wrong-shape", problem);
  context.metrics.upstreamCall(operation.operationId, status, (performance.now() - call.started) / 1000);

  if (status === 401 && call.token) {
    request.log.info({ event: "session-expired", operation: operation.operationId }, "upstream refused the token");
    expire(request, "upstream-refused");
    return reply.code(401).send({ detail: errorTexts.sessionExpired });
  }
  if (status < 200 || status >= 300) {
    call.attempt?.keep(); // the upstream refused it: it counts
    await failed(request, rule);
    return reply.code(status).send(errorShape(status, body));
  }
  const shaped: Shaped = rule.effect ? await rule.effect({ context, request, body }) : { body: body ?? {} };
  if (shaped.failed || rule.throttle?.counts === "every") call.attempt?.keep();
  else await call.attempt?.giveBack(); // only failures count
  if (!shaped.failed) await call.attempt?.passed(reply);
  return reply
    .code(shaped.status ?? status)
    .headers(shaped.headers ?? {})
    .send(shaped.body ?? {});
}

/** An upstream that did not answer in time, could not be reached, or answered more or other than JSON. */
async function fault(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: Fault,
  shape?: ShapeProblem,
) {
  const call = request.upstreamCall;
  const operation = call?.operation.operationId ?? "unknown";
  if (call) context.metrics.upstreamCall(operation, kind, (performance.now() - call.started) / 1000);
  request.log.warn({ operation, fault: kind, ...shape }, "upstream fault");
  // An unreachable upstream never saw the call: not counted (given back once answered); any other fault counts.
  if (call && kind !== "unreachable") call.attempt?.keep();
  if (call) await failed(request, call.rule);
  if (!reply.sent) reply.code(kind === "timeout" ? 504 : 502).send({});
}

/** What a failed call does to the session: a failed generate ends the pending sign-in. */
async function failed(request: FastifyRequest, rule: ProxiedRule) {
  rule.onFailure?.(request);
}

function tryJson(raw: Buffer): unknown {
  try {
    return raw.length > 0 ? JSON.parse(raw.toString("utf8")) : undefined;
  } catch {
    return undefined;
  }
}

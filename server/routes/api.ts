// `/api/*`: forwards the upstream operations the islands use, with the token from the session, never from the browser.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "#server/context.ts";
import { sessionAnswers, signInStep } from "#server/routes/api-answers.ts";
import { type Auth, currentAuth, endSession } from "#server/session.ts";
import { type Operation, pathFiller, routerPath } from "#server/upstream/operations.ts";
import { strongPassword } from "#web/password-rules.ts";
import { errorTexts } from "#web/texts/errors.ts";

const JSON_TYPE = "application/json; charset=utf-8";

/** Who may call an operation: anyone, a session waiting for its MFA code, or a signed-in session. */
type Needs = "anyone" | "pending" | "signed-in";

/**
 * The operations the browser may reach and what each needs. Page tracking, permissions and the PDFs
 * are called by the server itself, so they are not listed.
 */
const exposed: Record<string, Needs> = {
  loginClient: "anyone",
  loginVendor: "anyone",
  linkLoginClient: "anyone",
  linkLoginVendor: "anyone",
  resetPassword: "anyone",
  generateMfaCode: "pending",
  validateMfaCode: "pending",
  testPassword: "signed-in",
  changePassword: "signed-in",
};

/** The sign-in operations, by the event their outcomes are logged and counted under. */
const signInEvents: Record<string, string> = {
  loginClient: "sign-in",
  loginVendor: "sign-in",
  linkLoginClient: "link-sign-in",
  linkLoginVendor: "link-sign-in",
};

/** Operations whose failure ends the pending sign-in. */
const clearsTokenOnFailure = new Set(["generateMfaCode"]);

/** Checks on a body beyond the spec's schema, made before the upstream is called. */
const bodyChecks: Record<string, (body: unknown) => string | undefined> = {
  changePassword: (body) => {
    const result = strongPassword.safeParse((body as { password?: unknown }).password);
    return result.success ? undefined : result.error.issues[0]?.message;
  },
};

type Params = Record<string, string>;

/** Throttled operations: their group, and the user an attempt counts against (SPEC.md's identifiers). */
const throttled: Record<
  string,
  { group: string; user: (body: Record<string, unknown>, auth: Auth | undefined) => string | undefined }
> = {
  loginClient: { group: "sign-in", user: (body) => `client/${String(body.shortname)}/${String(body.username)}` },
  loginVendor: { group: "sign-in", user: (body) => `vendor/${String(body.username)}` },
  linkLoginClient: { group: "sign-in", user: () => undefined },
  linkLoginVendor: { group: "sign-in", user: () => undefined },
  resetPassword: { group: "reset", user: (body) => String(body.emailAddress) },
  generateMfaCode: { group: "mfa", user: (_, auth) => auth && `${auth.site}/${auth.userName}` },
  validateMfaCode: { group: "mfa", user: (_, auth) => auth && `${auth.site}/${auth.userName}` },
};

export async function apiRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const forwarded = context.operations.filter((operation) => exposed[operation.operationId]);
  for (const operation of forwarded) {
    const needs = exposed[operation.operationId] as Needs;
    const fill = pathFiller(operation.path);
    app.route<{ Params: Params; Querystring: Params }>({
      method: operation.method,
      url: `/api${routerPath(operation.path)}`,
      schema: {
        ...(operation.params ? { params: operation.params } : {}),
        // Only the query parameters the spec declares reach the upstream; an operation that declares none takes none.
        querystring: operation.query ?? { type: "object", additionalProperties: false },
        ...(operation.body ? { body: operation.body } : {}),
      },
      onRequest: refuseMovingParams,
      handler: (request, reply) => forward(context, operation, needs, fill, request, reply),
    });
  }

  // Anything else under /api never reaches the upstream: a known path with another method is 405, the rest 404.
  const patterns = forwarded.map((operation) => ({
    method: operation.method,
    pattern: new RegExp(`^/api${operation.path.replace(/\{\w+\}/g, "[^/]+")}$`),
  }));
  app.all("/api/*", async (request, reply) => {
    const path = request.url.split("?")[0] ?? "";
    const allowed = patterns.filter(({ pattern }) => pattern.test(path)).map(({ method }) => method);
    if (allowed.length > 0)
      return reply.code(405).header("allow", allowed.join(", ")).send({ detail: "Method Not Allowed" });
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

async function forward(
  context: AppContext,
  operation: Operation,
  needs: Needs,
  fill: (params: Params) => string,
  request: FastifyRequest<{ Params: Params; Querystring: Params }>,
  reply: FastifyReply,
) {
  const auth = currentAuth(request);
  let token: string | undefined;
  if (needs !== "anyone") {
    const stageOk = auth && (needs === "pending" ? auth.stage === "pending" : auth.stage === "signed-in");
    if (!auth || !stageOk) {
      endSession(request, { error: errorTexts.sessionExpired });
      return reply.code(401).send({ detail: errorTexts.sessionExpired });
    }
    if (!siteMatches(auth, request.params)) return reply.code(403).send({ detail: errorTexts.accessDenied });
    token = auth.token;
  }
  const throttle = throttled[operation.operationId];
  const body = (request.body ?? {}) as Record<string, unknown>;
  if (throttle && !context.limiter.allow(throttle.group, request.ip, throttle.user(body, auth))) {
    request.log.warn({ event: "throttled", group: throttle.group }, "too many attempts");
    context.metrics.signIns.inc({ event: throttle.group, outcome: "throttled" });
    return reply.code(429).header("retry-after", "60").send({ detail: errorTexts.tooManyAttempts });
  }
  const problem = bodyChecks[operation.operationId]?.(request.body);
  if (problem) return reply.code(400).send({ description: problem });

  const query = request.query ?? {};
  const search = Object.keys(query).length > 0 ? new URLSearchParams(query).toString() : "";
  const answer = await context.upstream({
    operation: operation.operationId,
    method: operation.method,
    path: `${fill(request.params ?? {})}${search ? `?${search}` : ""}`,
    token,
    // An operation the spec declares without a body sends none, whatever the browser sent.
    body: operation.body ? request.body : undefined,
  });

  // SPEC.md 7 parses a non-empty answer as JSON; one that is not JSON (or was cut short) is an upstream fault.
  const garbled = answer.kind === "answer" && answer.ok && answer.raw.length > 0 && answer.body === undefined;
  const failed = answer.kind === "fault" || !answer.ok || garbled;
  // SPEC.md 4.2: when a code cannot be generated, the token is cleared (the island shows the expiry message).
  if (failed && clearsTokenOnFailure.has(operation.operationId))
    endSession(request, { error: errorTexts.sessionExpired });
  if (answer.kind === "fault") {
    request.log.warn({ operation: operation.operationId, fault: answer.fault }, "upstream fault");
    return reply.code(answer.fault === "timeout" ? 504 : 502).send({});
  }
  if (answer.status === 401 && token) {
    // One clean expiry: the id is revoked, so calls still carrying an older copy of the cookie stop here too.
    const sid = request.session.get("sid");
    if (sid) context.revoked.revoke(sid);
    request.log.info({ event: "session-expired", operation: operation.operationId }, "upstream refused the token");
    endSession(request, { error: errorTexts.sessionExpired });
    return reply.code(401).send({ detail: errorTexts.sessionExpired });
  }
  if (!answer.ok) {
    const event = signInEvents[operation.operationId];
    if (event) signInStep(context, request, { event, outcome: "refused", status: answer.status }, "sign-in refused");
    return reply.code(answer.status).send(errorShape(answer.body));
  }
  if (garbled) {
    request.log.warn({ operation: operation.operationId, fault: "not-json" }, "upstream fault");
    return reply.code(502).send({});
  }
  const shape = sessionAnswers[operation.operationId];
  if (!shape && answer.raw.length > 0) return reply.code(answer.status).type(JSON_TYPE).send(answer.raw); // checked JSON
  const shaped = shape ? await shape({ context, request, body: answer.body }) : answer.body;
  return reply.code(answer.status).send(shaped ?? {});
}

/** `{site}` and `{audience}` must name the session's own site. */
function siteMatches(auth: Auth, params: Params | undefined): boolean {
  const named = params?.site ?? params?.audience;
  return named === undefined || named === auth.site;
}

/** Only the section 8 fields of an upstream error pass to the browser. */
function errorShape(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== "object") return {};
  const { detail, description, errors } = body as Record<string, unknown>;
  return Object.fromEntries(Object.entries({ detail, description, errors }).filter(([, value]) => value !== undefined));
}

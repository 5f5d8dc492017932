// `/api`: the upstream operations the islands use, forwarded by @fastify/http-proxy with the session's token (never
// the browser's), each checked by its row of the rules table and openapi/portal.yaml's schema before it leaves
// (server/api/admit.ts), and its answer read within a size cap and a deadline before it reaches the browser
// (server/api/forwarded-answer.ts). A row with `answeredBy` is answered by the portal's own typed call instead (the
// password test, shared with ending other sessions).
import httpProxy from "@fastify/http-proxy";
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import { admit, type Params, refuseCaller, refuseMovingParams, upstreamHeaders } from "#server/api/admit.ts";
import { answered, fault, type UpstreamAnswer } from "#server/api/forwarded-answer.ts";
import { type OwnCallRule, rules } from "#server/api/rules.ts";
import type { AppContext } from "#server/context.ts";
import { hasBody, isJson } from "#server/plugins/content-type.ts";
import { refuseWithoutIslandsHeader } from "#server/plugins/csrf.ts";
import { invalidRequest, Refusal } from "#server/plugins/errors.ts";
import { expire } from "#server/session/lifecycle.ts";
import { sessionId } from "#server/session/standing.ts";
import { serverTexts } from "#server/texts.ts";
import { type Operation, routerPath } from "#server/upstream/operations.ts";
import { proxyFault } from "#server/upstream/read-capped.ts";
import { missingName, tooLongField, trimNames } from "#web/protocol/typed-names.ts";
import { errorTexts } from "#web/texts/errors.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The operation a forwarded route answers (set when the route is added). */
    operationId?: string;
  }
}

/**
 * Every operation openapi/portal.yaml declares has its row in this build's rules table: a description edited after the
 * build (or a row not yet written) stops the start naming each operation, never a crash further on.
 */
export function assertRowForEach(operations: readonly Pick<Operation, "operationId">[]): void {
  const missing = operations.map(({ operationId }) => operationId).filter((id) => !Object.hasOwn(rules, id));
  if (missing.length === 0) return;
  throw new Error(
    `openapi/portal.yaml declares ${missing.join(", ")}, which this build's rules table (server/api/rules.ts) has no row for: give each its row, then run npm run gen:api and npm run build`,
  );
}

export async function apiPlugin(api: FastifyInstance, { context }: { context: AppContext }): Promise<void> {
  assertRowForEach(context.operations);
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

  api.addHook("onRequest", refuseWithoutIslandsHeader);
  // The islands send JSON: a body of another kind (a form, which the session's scope could parse) or a malformed
  // type is refused before it is read, by the parser the forward uses.
  api.addHook("preParsing", (request, reply, payload, done) => {
    if (hasBody(request.headers) && !isJson(request.headers["content-type"]))
      reply.code(415).send(invalidRequest(serverTexts.jsonOnly.message));
    else done(null, payload);
  });
  // A name typed with blanks around it names the same account as the form's (web/protocol/typed-names.ts): trimmed
  // before the schema reads it, so the throttle, the call and the session all see one spelling. A field longer than the
  // upstream takes is refused by its name, before the schema would refuse it as section 8's bare "Action Failed"; a
  // required name of only blanks is refused first, as the form refuses it ("User ID is required."), not by the schema.
  api.addHook("preValidation", (request, _reply, done) => {
    request.body = trimNames(request.body);
    const refused = missingName(request.body) ?? tooLongField(request.body);
    done(refused === undefined ? undefined : new Refusal(400, refused));
  });
  // Callback hooks, here and below: an async hook costs a promise and a microtask on every call.
  // A lock the call holds is free before its answer leaves: a client that sends its next code as soon as it reads
  // this answer, on any replica, must not find it still held.
  // Nothing is written on the request once its handler has answered: the release is done once, however often asked.
  api.addHook("onSend", (request, _reply, payload, done) => {
    const release = request.beforeAnswer;
    if (!release) return done(null, payload);
    release().then(
      () => done(null, payload),
      () => done(null, payload),
    );
  });
  // An answer that was never sent (the browser went away first) frees it too.
  api.addHook("onResponse", (request, _reply, done) => {
    void request.beforeAnswer?.();
    // An attempt nothing settled never reached the upstream (an error before it left): it was not an attempt.
    void request.upstreamCall?.attempt?.settle("not-sent");
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
          void fault(context, reply.request as FastifyRequest, reply as FastifyReply, proxyFault(error));
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
      handler: async (request, reply) => {
        refuseCaller(rule.needs, request, operation);
        return rule.answeredBy({ context, request, reply });
      },
    });
  }

  // Anything else under /api never reaches the upstream: a known path with another method is 405, the rest 404.
  const patterns = forwarded.map((operation) => ({
    method: operation.method,
    pattern: new RegExp(`^/api${operation.path.replace(/\{\w+\}/g, "[^/]+")}$`),
  }));
  api.all("/*", async (request) => {
    const path = request.url.split("?")[0] ?? "";
    const allowed = patterns.filter(({ pattern }) => pattern.test(path)).map(({ method }) => method);
    if (allowed.length > 0)
      throw new Refusal(405, serverTexts.methodNotAllowed.message, undefined, { allow: allowed.join(", ") });
    throw new Refusal(404, errorTexts.endpointNotFound);
  });
}

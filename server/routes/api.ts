// `/api`: the portal's local API for its islands. One route per operation an island may cause, at the operation's own
// path in openapi/portal.yaml, answered by its action (server/actions/perform.ts) as JSON. Nothing of the browser's
// request but the operation's declared input and the islands' flags reaches the action; nothing of the upstream's
// answer but what the action makes of it reaches the browser.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { perform } from "#server/actions/perform.ts";
import { type Flags, type Params, rules } from "#server/actions/rules.ts";
import { ConfigError } from "#server/config.ts";
import type { AppContext } from "#server/context.ts";
import { hasBody, isJson } from "#server/plugins/content-type.ts";
import { refuseWithoutIslandsHeader } from "#server/plugins/csrf.ts";
import { invalidRequest, Refusal } from "#server/plugins/errors.ts";
import { serverTexts } from "#server/texts.ts";
import { type Operation, routerPath } from "#server/upstream/operations.ts";
import { END_OTHERS_HEADER } from "#web/api/end-others.ts";
import { REPLACE_SESSION_HEADER, SILENT_CHECK_HEADER, TAX_BRIDGE_HEADER } from "#web/protocol/headers.ts";
import { errorTexts } from "#web/texts/errors.ts";

/**
 * Every operation openapi/portal.yaml declares has its row in this build's rules table: a description generated before
 * its row was written (tsx runs without the type check) stops the start with one line naming each operation.
 */
export function assertRowForEach(operations: readonly Pick<Operation, "operationId">[]): void {
  const missing = operations.map(({ operationId }) => operationId).filter((id) => !Object.hasOwn(rules, id));
  if (missing.length === 0) return;
  throw new ConfigError(
    `openapi/portal.yaml declares ${missing.join(", ")}, which this build's rules table (server/actions/rules.ts) has no row for: give each its row, then run npm run gen:api and npm run build`,
  );
}

/** The islands' headers that ask for more than the operation's fields say, as the actions read them. */
const flagHeaders: Record<keyof Flags, string> = {
  taxBridge: TAX_BRIDGE_HEADER.toLowerCase(),
  replaceSession: REPLACE_SESSION_HEADER.toLowerCase(),
  endOthers: END_OTHERS_HEADER.toLowerCase(),
  silentCheck: SILENT_CHECK_HEADER.toLowerCase(),
};
const flagsOf = (request: FastifyRequest): Flags =>
  Object.fromEntries(Object.entries(flagHeaders).map(([flag, header]) => [flag, request.headers[header] === "1"]));

export async function apiPlugin(api: FastifyInstance, { context }: { context: AppContext }): Promise<void> {
  assertRowForEach(context.operations);
  const islands = context.operations.filter((operation) => rules[operation.operationId].islands);

  api.addHook("onRequest", refuseWithoutIslandsHeader);
  // The islands send JSON: a body of another kind (a form, which the session's scope could parse) or a malformed
  // type is refused before it is read.
  api.addHook("preParsing", (request, reply, payload, done) => {
    if (hasBody(request.headers) && !isJson(request.headers["content-type"]))
      reply.code(415).send(invalidRequest(serverTexts.jsonOnly.message));
    else done(null, payload);
  });

  for (const operation of islands)
    api.route({
      method: operation.method,
      url: routerPath(operation.path),
      handler: async (request, reply) => {
        const answer = await perform(context, request, reply, operation.operationId, {
          params: (request.params ?? {}) as Params,
          query: (request.query ?? {}) as Params,
          body: request.body as Record<string, unknown> | undefined,
          flags: flagsOf(request),
        });
        return reply
          .code(answer.status)
          .headers(answer.headers ?? {})
          .send(answer.body);
      },
    });

  // Anything else under /api never reaches the upstream. The router matches as it does for the operations: a declared
  // path's other methods are 405, with the methods it has; any other path is 404.
  const declared = new Map<string, string[]>();
  for (const { path, method } of islands) declared.set(path, [...(declared.get(path) ?? []), method]);
  for (const [path, allowed] of declared)
    api.route({
      method: api.supportedMethods.filter((method) => !allowed.includes(method === "HEAD" ? "GET" : method)),
      url: routerPath(path),
      handler: async () => {
        throw new Refusal(405, serverTexts.methodNotAllowed.message, undefined, { allow: allowed.join(", ") });
      },
    });
  api.all("/*", async () => {
    throw new Refusal(404, errorTexts.endpointNotFound);
  });
}

// The upstream operations declared in openapi/portal.yaml, read once at start from its form with every `$ref` resolved
// (generated with its types, scripts/gen-api.ts): the only calls the portal makes or forwards, with the schemas their
// inputs are checked by.
import { description, type operations } from "#openapi/schema.ts";
import type { Reads } from "#server/upstream/answer-reader.ts";
import { sites } from "#web/site.ts";

export type OperationId = keyof operations;
export type JsonSchema = Record<string, unknown>;
/** A parameter of the request's address: where it is, and its name. */
export type AddressParameter = { in: "path" | "query"; name: string };

export type Operation = {
  operationId: OperationId;
  method: "GET" | "HEAD" | "POST" | "PUT" | "DELETE";
  /** The spec's path, e.g. `/web/{site}/mfa/validate/{code}`. */
  path: string;
  params?: JsonSchema;
  query?: JsonSchema;
  body?: JsonSchema;
  /** The schema of its success answer (200, JSON), which every answer is checked against before it is used. */
  answer?: JsonSchema;
  /**
   * What of its success answer the portal reads: its body, or its status alone when the description gives that answer
   * no shape (openapi/portal.yaml's `Acknowledgement`, "an answer the portal does not read"; a HEAD's answer).
   */
  reads: Reads;
  /**
   * The parameters that name an audience, known by what the description says they hold (the sites' values, as its
   * `Site` schema gives them), whatever their name: a caller may name only its own (server/actions/perform.ts).
   */
  audienceParams: readonly AddressParameter[];
};

type Parameter = { name: string; in: string; required?: boolean; schema?: JsonSchema };
type SpecOperation = {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content?: { "application/json"?: { schema?: JsonSchema } } };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
};
type Spec = { paths: Record<string, Partial<Record<(typeof methods)[number], SpecOperation>>> };

const methods = ["get", "head", "post", "put", "delete"] as const;

function parameterSchema(parameters: Parameter[], where: "path" | "query"): JsonSchema | undefined {
  const chosen = parameters.filter((p) => p.in === where);
  if (chosen.length === 0) return undefined;
  return {
    type: "object",
    additionalProperties: false,
    required: chosen.filter((p) => p.required === true).map((p) => p.name),
    properties: Object.fromEntries(chosen.map((p) => [p.name, p.schema ?? {}])),
  };
}

/** Keywords that say what a schema is about without constraining it: a schema of these only accepts any answer. */
const annotations = new Set(["title", "description", "$comment", "examples", "deprecated"]);
const saysNothing = (schema: JsonSchema | undefined) =>
  schema === undefined || Object.keys(schema).every((keyword) => annotations.has(keyword));

/** A success answer without content, or whose every content has a schema that says nothing, is read by its status. */
function readsOf(responses: SpecOperation["responses"]): Reads {
  const content = Object.values(responses?.["200"]?.content ?? {});
  return content.every((media) => saysNothing(media.schema)) ? "status" : "body";
}

/** A parameter whose values are sites, and nothing else, names an audience. */
const namesAudience = (parameter: Parameter): boolean => {
  const values = parameter.schema?.enum;
  return Array.isArray(values) && values.length > 0 && values.every((value) => sites.some((site) => site === value));
};

function audienceParams(parameters: Parameter[]): AddressParameter[] {
  return parameters
    .filter((p): p is Parameter & AddressParameter => (p.in === "path" || p.in === "query") && namesAudience(p))
    .map((p) => ({ in: p.in, name: p.name }));
}

/** The operations of a dereferenced description: the portal's own unless given. */
export function loadOperations(spec = description): Operation[] {
  const { paths } = spec as Spec;
  const found: Operation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    for (const method of methods) {
      const operation = item[method];
      if (!operation?.operationId) continue;
      const parameters = operation.parameters ?? [];
      const params = parameterSchema(parameters, "path");
      const query = parameterSchema(parameters, "query");
      const body = operation.requestBody?.content?.["application/json"]?.schema;
      const answer = operation.responses?.["200"]?.content?.["application/json"]?.schema;
      found.push({
        operationId: operation.operationId as OperationId,
        method: method.toUpperCase() as Operation["method"],
        path,
        ...(params ? { params } : {}),
        ...(query ? { query } : {}),
        ...(body ? { body } : {}),
        ...(answer ? { answer } : {}),
        reads: readsOf(operation.responses),
        audienceParams: audienceParams(parameters),
      });
    }
  }
  return found;
}

/** `/web/{site}/mfa` → `/web/:site/mfa`, for Fastify's router. */
export const routerPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

// The upstream operations declared in openapi/portal.yaml, read once: the only calls the portal forwards.
import { readFileSync } from "node:fs";
import { parse } from "yaml";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
export type JsonSchema = JsonObject;

export type Operation = {
  operationId: string;
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** The spec's path, e.g. `/web/{site}/mfa/validate/{code}`. */
  path: string;
  params?: JsonSchema;
  query?: JsonSchema;
  body?: JsonSchema;
};

const specFile = new URL("../../openapi/portal.yaml", import.meta.url);
const methods = ["get", "post", "put", "delete"] as const;

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Inlines the spec's local `$ref`s so each schema stands alone for the validator. */
function deref(value: Json, root: JsonObject): Json {
  if (Array.isArray(value)) return value.map((item) => deref(item, root));
  if (!isObject(value)) return value;
  const ref = value.$ref;
  if (typeof ref === "string") {
    const target = ref
      .replace(/^#\//, "")
      .split("/")
      .reduce<Json | undefined>((node, key) => (isObject(node) ? node[key] : undefined), root);
    if (target === undefined) throw new Error(`openapi: unresolved ${ref}`);
    return deref(target, root);
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, deref(item, root)]));
}

function parameterSchema(parameters: Json[], where: "path" | "query"): JsonSchema | undefined {
  const chosen = parameters.filter((p): p is JsonObject => isObject(p) && p.in === where);
  if (chosen.length === 0) return undefined;
  return {
    type: "object",
    additionalProperties: false,
    required: chosen.filter((p) => p.required === true).map((p) => String(p.name)),
    properties: Object.fromEntries(chosen.map((p) => [String(p.name), p.schema ?? {}])),
  };
}

export function loadOperations(file: URL = specFile): Operation[] {
  const root = parse(readFileSync(file, "utf8")) as Json;
  if (!isObject(root)) throw new Error("openapi: not an object");
  const spec = deref(root, root);
  if (!isObject(spec) || !isObject(spec.paths)) throw new Error("openapi: no paths");
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    if (!isObject(item)) continue;
    for (const method of methods) {
      const op = item[method];
      if (!isObject(op) || typeof op.operationId !== "string") continue;
      const parameters = Array.isArray(op.parameters) ? op.parameters : [];
      const body = isObject(op.requestBody) ? op.requestBody : undefined;
      const content = body && isObject(body.content) ? body.content["application/json"] : undefined;
      const bodySchema = isObject(content) && isObject(content.schema) ? content.schema : undefined;
      operations.push({
        operationId: op.operationId,
        method: method.toUpperCase() as Operation["method"],
        path,
        ...optional("params", parameterSchema(parameters, "path")),
        ...optional("query", parameterSchema(parameters, "query")),
        ...optional("body", bodySchema),
      });
    }
  }
  return operations;
}

const optional = <K extends string, V>(key: K, value: V | undefined) =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

/** `/web/{site}/mfa` → `/web/:site/mfa`, for Fastify's router. */
export const routerPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

/** A spec path's filler, split once (a route fills its path on every call): `{name}` takes its encoded value. */
export function pathFiller(path: string): (params: Record<string, string>) => string {
  const parts = path.split(/\{(\w+)\}/); // the parameters' names at the odd indices
  return (params) => {
    let filled = parts[0] as string;
    for (let index = 1; index < parts.length; index += 2)
      filled += encodeURIComponent(params[parts[index] as string] ?? "") + parts[index + 1];
    return filled;
  };
}

/** Fills a spec path with encoded parameter values. */
export const fillPath = (path: string, params: Record<string, string>) => pathFiller(path)(params);

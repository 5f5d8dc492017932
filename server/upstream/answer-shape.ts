// The shape every upstream success answer must have before the portal uses it: the validators are compiled by ajv
// (the JSON Schema engine Fastify itself runs) from openapi/portal.yaml's response schemas, never written again here.
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { JsonSchema, Operation } from "#server/upstream/operations.ts";

/** What was wrong with an answer: the field (a JSON pointer, `""` for the whole answer) and the schema's rule. */
export type ShapeProblem = { field: string; rule: string };

// The description's own words (`description`, `example`) are not validation keywords: strict mode would refuse them.
const ajv = new Ajv({ strict: false, allErrors: false });
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

function validatorOf(schema: JsonSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** The field an error points at; a missing property is named itself, not its parent. */
function fieldOf(error: ErrorObject): string {
  const missing = error.keyword === "required" ? (error.params as { missingProperty?: string }).missingProperty : "";
  return missing ? `${error.instancePath}/${missing}` : error.instancePath;
}

/**
 * Undefined when `body` has the shape the operation's success answer declares (or it declares none), or is no body at
 * all (an empty answer, requirements 7.1: what reads it finds no token, no verdict, no permissions); else the first
 * field that is wrong. The value itself is never reported: it may be a token.
 */
export function answerProblem(operation: Operation, body: unknown): ShapeProblem | undefined {
  return operation.answer && body !== undefined ? shapeProblem(operation.answer, body) : undefined;
}

/** Undefined when `value` fits `schema` (a schema of openapi/portal.yaml, maybe narrowed); else its first wrong field. */
export function shapeProblem(schema: JsonSchema, value: unknown): ShapeProblem | undefined {
  const validate = validatorOf(schema);
  if (validate(value)) return undefined;
  const [error] = validate.errors ?? [];
  return error ? { field: fieldOf(error), rule: error.keyword } : { field: "", rule: "schema" };
}

// The sandbox's check of the permissions it stores and is given: the spec's UserInfo (openapi/portal.yaml), checked by
// ajv as the portal checks upstream answers, with the sandbox's own stricter rules laid over it.
import type { components } from "#openapi/schema.ts";
import { type ShapeProblem, shapeProblem } from "#server/upstream/answer-reader.ts";
import { type JsonSchema, loadOperations } from "#server/upstream/operations.ts";

/** What the sandbox stores per user; `loaded` is a property of the answer, not of the user. */
export type Permissions = Omit<components["schemas"]["UserInfo"], "loaded">;

/**
 * UserInfo from the spec, read once as the module loads. The sandbox refuses what the spec's wording asks but its schema
 * leaves open (a real upstream may be looser, so the portal is): no field beyond UserInfo's, and the tiers numeric
 * strings.
 */
const shapes = (() => {
  const userInfo = loadOperations().find((operation) => operation.operationId === "getUserInfo")?.answer;
  if (!userInfo) throw new Error("openapi/portal.yaml declares no getUserInfo answer");
  const { loaded, ...given } = userInfo.properties as Record<string, JsonSchema>;
  const numeric = (tier: JsonSchema | undefined) => ({ ...tier, type: "string", pattern: "^[0-9]+$" });
  const properties = { ...given, vipTier: numeric(given.vipTier), userTier: numeric(given.userTier) };
  const required = (userInfo.required as string[]).filter((name) => name !== "loaded");
  const stored = { type: "object", additionalProperties: false, required, properties };
  // A patch is "a partial UserInfo": its `loaded` is accepted, though it describes the answer, not the user.
  const patch = { type: "object", additionalProperties: false, properties: { ...properties, loaded: loaded ?? {} } };
  return { stored, patch };
})();

/** Undefined when `value` is a user's whole permissions; else the first field that is wrong. */
export const storedPermissionsProblem = (value: unknown): ShapeProblem | undefined =>
  shapeProblem(shapes.stored, value);

/** Undefined when `value` is a partial UserInfo the sandbox takes; else the first field that is wrong. */
export const permissionsPatchProblem = (value: unknown): ShapeProblem | undefined => shapeProblem(shapes.patch, value);

/** `value` as whole permissions, once checked: the spec's generated type, never a second description of it. */
export function asPermissions(value: unknown): Permissions {
  const problem = storedPermissionsProblem(value);
  if (problem) throw new Error(`stored permissions do not fit UserInfo: ${problem.field || "(whole)"} ${problem.rule}`);
  return value as Permissions;
}

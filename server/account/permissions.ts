// The signed-in user's permissions: fetched from the upstream when MFA passes, cached in the session, refreshed when
// stale. A 401 ends the session (requirements 4.5); any other failure leaves the page to say it is still checking.
import type { FastifyRequest } from "fastify";
import type { AppContext } from "#server/context.ts";
import { cachedPermissions, signedIn } from "#server/session/fields.ts";
import { refusesToken, tokenRefused } from "#server/session/lifecycle.ts";
import { cachePermissions } from "#server/session/writes.ts";
import { answerProblem } from "#server/upstream/answer-reader.ts";
import { bearer, faultOf } from "#server/upstream/client.ts";
import { gatedServices } from "#web/gates.ts";
import type { Site, UserInfo } from "#web/site.ts";

/** How long cached permissions are trusted: a change upstream takes effect within this period. */
export const PERMISSIONS_TTL_MS = 5 * 60_000;

/**
 * requirements 3's User info, of the shape openapi/portal.yaml declares: an answer of another shape is not trusted, and
 * an empty one holds no permissions (both a failure of the call, as for a page that still checks).
 */
function userInfoOf(context: AppContext, data: unknown): UserInfo | undefined {
  if (data === undefined) {
    context.permissionFaults.failed({ operation: "getUserInfo", fault: "empty" });
    return undefined;
  }
  const operation = context.operations.find((candidate) => candidate.operationId === "getUserInfo");
  const problem = operation ? answerProblem(operation, data) : { field: "", rule: "undeclared" };
  if (!problem) return data as UserInfo;
  context.permissionFaults.failed({ operation: "getUserInfo", fault: "wrong-shape", ...problem });
  return undefined;
}

/** What a failed permissions call answered, for section 8's message: its status and body (502 and none for a fault). */
export type PermissionsFailure = (status: number, body: unknown) => void;

/**
 * Fetches the permissions into the session; undefined when they cannot be had (the session may have ended), and then
 * `failed` is told what the call answered.
 */
export async function loadPermissions(
  context: AppContext,
  request: FastifyRequest,
  failed: PermissionsFailure = () => {},
): Promise<UserInfo | undefined> {
  const auth = signedIn(request);
  if (!auth) return undefined;
  let answer: Awaited<ReturnType<typeof askUserInfo>>;
  try {
    answer = await askUserInfo(context, auth.site, auth.token);
  } catch (error) {
    context.permissionFaults.failed({ err: error });
    failed(502, undefined);
    return undefined;
  }
  const { data, response } = answer;
  // requirements 4.5: a 401 ends the session here, in this request.
  if (refusesToken(response.status)) {
    tokenRefused(request, "getUserInfo");
    return undefined;
  }
  if (!response.ok) {
    context.permissionFaults.failed({ status: response.status, fault: faultOf(response) });
    failed(response.status, answer.error);
    return undefined;
  }
  const shaped = userInfoOf(context, data);
  if (!shaped) {
    failed(502, undefined);
    return undefined;
  }
  // Only the fields the gates read: anything else the answer carried is never kept.
  const { viewOnly, isAdmin, clientServices, beneServices, paymentTier, spotTier, vipTier, userTier } = shaped;
  const fields = { viewOnly, isAdmin, clientServices, beneServices, paymentTier, spotTier, vipTier, userTier };
  const info = forGates({ loaded: true, ...fields });
  context.permissionFaults.succeeded();
  cachePermissions(request, info, context.now());
  return info;
}

const askUserInfo = (context: AppContext, site: Site, token: string) =>
  context.upstream.GET("/web/{site}/user-info", { params: { path: { site } }, headers: bearer(token) });

const gated = {
  clientServices: new Set<string>(gatedServices.clientServices),
  beneServices: new Set<string>(gatedServices.beneServices),
};

/** A tier longer than this is kept as what the gates read of it. */
const SHORT = 16;
const tierText = (value: string) => (value.length <= SHORT ? value : Number(value) > 0 ? "1" : "0");
/** A truthy-or-falsy tier (requirements 3.3: of any type) kept as what the gates read of it when long or not a scalar. */
const tierValue = (value: UserInfo["paymentTier"]) =>
  (typeof value === "string" && value.length > SHORT) || (typeof value === "object" && value !== null)
    ? Boolean(value)
    : value;

/** The permissions as the session keeps them: every gate answers the same as with the upstream's full set. */
export function forGates(info: UserInfo): UserInfo {
  return {
    ...info,
    clientServices: info.clientServices.filter((code) => gated.clientServices.has(code)),
    beneServices: info.beneServices.filter((code) => gated.beneServices.has(code)),
    paymentTier: tierValue(info.paymentTier),
    spotTier: tierValue(info.spotTier),
    vipTier: tierText(info.vipTier),
    userTier: tierText(info.userTier),
  };
}

/** The cached permissions, fetched again when missing or older than the TTL: at most one fetch per request. */
export async function permissionsFor(
  context: AppContext,
  request: FastifyRequest,
  failed?: PermissionsFailure,
): Promise<UserInfo | undefined> {
  const cached = cachedPermissions(request);
  if (cached && context.now() - cached.at < PERMISSIONS_TTL_MS) return cached.info;
  return loadPermissions(context, request, failed);
}

// What the portal does with the answers that carry a token or change who is signed in.
import type { FastifyRequest } from "fastify";
import type { components } from "#openapi/schema.d.ts";
import type { AppContext } from "#server/context.ts";
import { loadPermissions } from "#server/permissions.ts";
import { beginSession, currentAuth, endSession, storeAuth } from "#server/session.ts";
import type { HeldLinkLogin, HeldLogin } from "#web/api/held.ts";
import type { Site } from "#web/site.ts";
import { errorTexts } from "#web/texts/errors.ts";

type Schemas = components["schemas"];
type Shape = (input: { context: AppContext; request: FastifyRequest; body: unknown }) => Promise<unknown>;

const asObject = (body: unknown): Record<string, unknown> =>
  body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
const tokenOf = (body: unknown) => {
  const token = asObject(body).token;
  return typeof token === "string" && token ? token : undefined;
};

/** SPEC.md 4.1: a token is held as pending until MFA passes; a deactivated account keeps none. */
const holdLogin =
  (site: Site): Shape =>
  async ({ context, request, body }) => {
    const { message } = asObject(body) as Schemas["LoginResponse"];
    const token = tokenOf(body);
    const held = Boolean(token) && message !== "Deactivated";
    const userName = String(asObject(request.body).username ?? "");
    const outcome = held ? "pending-mfa" : message === "Deactivated" ? "deactivated" : "invalid";
    signInStep(
      context,
      request,
      { event: "sign-in", site, user: userName, outcome, loginMessage: message },
      "sign-in attempt",
    );
    if (held && token) {
      beginSession(
        request,
        { stage: "pending", site, userName, loginMessage: message ?? "Success", token },
        context.now(),
      );
    }
    return { ...(message ? { message } : {}), tokenHeld: held } satisfies HeldLogin;
  };

/** SPEC.md 4.6: a link's token signs the user in directly. */
const signInByLink =
  (site: Site): Shape =>
  async ({ context, request, body }) => {
    const token = tokenOf(body);
    if (token) {
      beginSession(request, { stage: "signed-in", site, userName: "", loginMessage: "Success", token }, context.now());
      await loadPermissions(context, request);
    }
    const outcome = token ? "signed-in" : "invalid";
    signInStep(context, request, { event: "link-sign-in", site, outcome }, "link sign-in attempt");
    return { tokenHeld: Boolean(token) } satisfies HeldLinkLogin;
  };

/** SPEC.md 4.2: only a `Passed` verdict promotes the pending token; a fresh session begins. */
const promoteOnPassed: Shape = async ({ context, request, body }) => {
  const verdict = Array.isArray(body) ? (body as Schemas["MfaVerdict"]) : [];
  const auth = currentAuth(request);
  if (auth?.stage !== "pending") return verdict;
  if (verdict[0]?.text === "Passed") {
    beginSession(request, { ...auth, stage: "signed-in" }, context.now());
    await loadPermissions(context, request);
    signInStep(
      context,
      request,
      { event: "mfa", site: auth.site, user: auth.userName, outcome: "passed" },
      "device verified",
    );
    return verdict;
  }
  // A pending sign-in gets a few tries; then it ends, so codes cannot be guessed on one token. The count is kept by
  // session id on the server, and the id is revoked at the limit: an older copy of the cookie starts no new count.
  const sid = request.session.get("sid") ?? "";
  const failures = context.mfaStrikes.add(sid);
  const who = { site: auth.site, user: auth.userName };
  signInStep(context, request, { event: "mfa", ...who, outcome: "failed", failures }, "code refused");
  if (failures >= context.config.mfaMaxWrongCodes) {
    context.revoked.revoke(sid);
    signInStep(context, request, { event: "mfa", ...who, outcome: "limit" }, "too many wrong codes");
    endSession(request, { error: errorTexts.sessionExpired });
  }
  return verdict;
};

/** SPEC.md 4.4: a changed password ends the expired-password state. */
const clearExpired: Shape = async ({ request, body }) => {
  const auth = currentAuth(request);
  if (auth?.loginMessage === "Password Expired") storeAuth(request, { ...auth, loginMessage: "Success" });
  return body;
};

export const sessionAnswers: Record<string, Shape> = {
  loginClient: holdLogin("client"),
  loginVendor: holdLogin("vendor"),
  linkLoginClient: signInByLink("client"),
  linkLoginVendor: signInByLink("vendor"),
  validateMfaCode: promoteOnPassed,
  changePassword: clearExpired,
};

/** A step of signing in: logged, and counted for the metrics by event and outcome. */
export function signInStep(
  context: AppContext,
  request: FastifyRequest,
  fields: { event: string; outcome: string } & Record<string, unknown>,
  message: string,
): void {
  request.log.info(fields, message);
  context.metrics.signIns.inc({ event: fields.event, outcome: fields.outcome });
}

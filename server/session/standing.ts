// How far a session is signed in (its standing), and the other reads of what it holds.
import type { FastifyRequest } from "fastify";
import { type Auth, get } from "#server/session/fields.ts";
import type { EndReason } from "#web/protocol/session-end.ts";

// `standing`, `signedIn`, `visitorOn` and `pastMfa` derive from `request.auth`, which the session plugin reads from the
// session's record once per request and the session's writes keep in step: asking again costs a comparison, so nothing is
// cached beside it (a second copy would have to follow every write too).

/**
 * The one answer to "how far is this session signed in?": waiting for its MFA code, past it but allowed only its
 * password change (an expired password), or fully signed in. The section gates, the page frame, page tracking and the
 * idle clock all ask here.
 */
export type Standing = "pending" | "password-change" | "signed-in";

export function standing(request: FastifyRequest): Standing | undefined {
  const auth = request.auth;
  if (!auth) return undefined;
  if (auth.stage === "pending") return "pending";
  return auth.loginMessage === "Password Expired" ? "password-change" : "signed-in";
}

/** A fully signed-in session: its sections, its header and sign-out, its visits tracked. */
export const signedIn = (request: FastifyRequest): Auth | undefined =>
  standing(request) === "signed-in" ? request.auth : undefined;

/**
 * The session a page's visit is recorded for: a signed-in one on every page, one allowed only its password change on
 * that step's page (`ownForm`) alone.
 */
export function visitorOn(request: FastifyRequest, ownForm: boolean): Auth | undefined {
  const state = standing(request);
  return state === "signed-in" || (ownForm && state === "password-change") ? request.auth : undefined;
}

/** A session past its MFA step, fully signed in or only allowed its password change: its idle clock is shown. */
export const pastMfa = (request: FastifyRequest): Auth | undefined =>
  request.auth?.stage === "signed-in" ? request.auth : undefined;

export const sessionId = (request: FastifyRequest) => get(request, "sid");
export const sessionTimes = (request: FastifyRequest) => ({
  born: get(request, "born") ?? 0,
  seen: get(request, "seen") ?? 0,
});
export const taxBridgeEntered = (request: FastifyRequest) => get(request, "taxBridge") === true;
export const cachedPermissions = (request: FastifyRequest) => get(request, "perms");
export const lastCodeSentAt = (request: FastifyRequest) => get(request, "codeSentAt");
export const previousPage = (request: FastifyRequest) => get(request, "previousPage");

/** Why the session this cookie carried ended, until the sign-in page has told the person. */
export const endedBy = (request: FastifyRequest): EndReason | undefined => get(request, "flash")?.ended;

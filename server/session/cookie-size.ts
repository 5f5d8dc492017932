// Whether the session still fits what a browser keeps of one cookie, asked where the session grows, before the
// request's answer is made: a browser would drop a larger cookie silently and keep sending the previous one. A session
// that does not fit ends at once, and the answer says why (SECURITY.md, "Cookie budget").
import type { FastifyRequest } from "fastify";
import { mayWrite } from "#server/session/fields.ts";
import { expire } from "#server/session/lifecycle.ts";
import { sessionCookieValue } from "#server/session/plugin.ts";

/** What a browser keeps of one cookie (RFC 6265 6.1), less room for the cookie's name and attributes. */
export const MAX_SEALED_SESSION = 4096 - 160;

/**
 * What a signed-in session may still add to its cookie: a passed password test, the tax-bridge mode and the result of
 * ending other sessions. The room is what it was when the previous path (64 characters at most) was kept here too,
 * about 190 bytes in the cookie: the path now has a cookie of its own (server/pages/previous-page.ts), and the tokens
 * SECURITY.md says fit still fit.
 */
export const SIGNED_IN_ROOM = 224;
/** What a pending session may still add: the time its code was sent. */
export const PENDING_ROOM = 64;

/**
 * Whether the session, with `room` bytes more to come, still fits what a browser keeps. One that does not ends at once,
 * and the person is told: by the request's own answer (`told: "answer"`: the sign-in, its MFA step and a link sign-in,
 * which ask here with the room their session keeps, server/api/effects.ts), or by the sign-in page the request then
 * leads to (`"sign-in page"`: a refresh of the permissions, server/permissions.ts). Every other write fits in that
 * room. A request that may not write the session writes nothing, so nothing of it can overflow.
 */
export function fitsCookie(request: FastifyRequest, room = 0, told: "answer" | "sign-in page" = "answer"): boolean {
  if (!mayWrite(request)) return true;
  const bytes = sealedBytes(request);
  if (bytes + room <= MAX_SEALED_SESSION) return true;
  request.log.error({ event: "session-too-large", bytes }, "session not stored");
  // An answer that says it leaves no notice behind for the next sign-in page to say again.
  expire(request, told === "answer" ? "signed-out" : "too-large");
  return false;
}

/** The session's cookie as it would be written now, in bytes. */
const sealedBytes = (request: FastifyRequest): number =>
  sessionCookieValue(request.server.encodeSecureSession(request.session)).length;

/**
 * Whether the session as it stands still leaves its standing's room (a form's answer kept in it for the next page,
 * server/routes/sign-in-forms.ts): nothing ends when it does not, the caller does without what it added.
 */
export function leavesRoom(request: FastifyRequest): boolean {
  const room = request.auth?.stage === "signed-in" ? SIGNED_IN_ROOM : PENDING_ROOM;
  return !mayWrite(request) || sealedBytes(request) + room <= MAX_SEALED_SESSION;
}

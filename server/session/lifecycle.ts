// How a session begins (a sign-in, the promotion after a passed code) and ends: `expire` is the only way, and it always
// revokes the session's id, so an older copy of the cookie is dead too.
import { randomUUID } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { registerSession, sessionEnded } from "#server/account/sessions.ts";
import { type Auth, clear, discard, mayWrite, set, storeAuth } from "#server/session/fields.ts";
import { sessionId } from "#server/session/standing.ts";
import { whyRevoked } from "#server/session/why-ended.ts";
import { type EndReason, unannounced } from "#web/protocol/session-end.ts";

/**
 * A new session for a new sign-in (a login answer or a link sign-in). The previous session, whoever it was, is
 * revoked: a sign-in never carries on an older session's id, cookie copies, strikes or mode. `taxBridge`: the sign-in
 * was made at `/tax-bridge/login`, and its session is in that mode until it ends.
 */
export function beginSignIn(request: FastifyRequest, auth: Auth, now: number, taxBridge = false): void {
  const previous = sessionId(request);
  if (previous) void request.server.revocations.revoke(previous);
  // The signed-in session it replaces leaves its person's list now: an ended session never counts against the bound.
  if (previous && request.auth?.stage === "signed-in") sessionEnded(request, request.auth, previous, "replaced");
  clear(request);
  if (taxBridge) set(request, "taxBridge", true);
  fresh(request, auth, now);
}

/** requirements 4.2: a `Passed` code promotes the pending token; the pending session's id is revoked (its cookie is dead). */
export function promote(request: FastifyRequest, now: number): void {
  const auth = request.auth;
  if (auth?.stage !== "pending") return;
  const previous = sessionId(request);
  if (previous) void request.server.revocations.revoke(previous);
  set(request, "codeSentAt", undefined);
  fresh(request, { ...auth, stage: "signed-in" }, now);
}

function fresh(request: FastifyRequest, auth: Auth, now: number): void {
  storeAuth(request, auth);
  set(request, "sid", randomUUID());
  set(request, "born", now);
  set(request, "seen", now);
  if (auth.stage === "signed-in") registerSession(request, auth, sessionId(request) as string, now);
}

/**
 * The only way a session ends: its id is revoked, everything it held is dropped (its tax-bridge mode too: the mode is
 * one sign-in's), and the sign-in page is left the reason to say why (web/texts/login-notices.ts words it), unless the
 * request's own answer says it (`told`: an end the person chose here). `recorded`: the ending was recorded when it
 * happened (a revoked session's later request), so it is not recorded again.
 */
export function expire(
  request: FastifyRequest,
  reason: EndReason,
  { told = unannounced(reason), recorded = false }: { told?: boolean; recorded?: boolean } = {},
): void {
  // A request that may not write the session (another site started it) does not end it either: the session reads as
  // none for the rest of this request, and the person's next request of their own ends it, with its reason.
  if (!mayWrite(request)) {
    request.auth = undefined;
    return;
  }
  const sid = sessionId(request);
  if (sid) void request.server.revocations.revoke(sid);
  // An ending is recorded once, when it happens: a copy of the cookie replayed later finds it recorded, and writes none.
  if (sid && !recorded && request.auth?.stage === "signed-in") sessionEnded(request, request.auth, sid, reason);
  clear(request);
  const notice = !told;
  if (notice) set(request, "flash", { ended: reason });
  // Nothing left to carry: the browser drops the cookie instead of keeping an empty one.
  if (!notice) discard(request);
  request.auth = undefined;
  request.log.info({ event: "session-ended", reason }, "session ended");
}

/**
 * A session revoked elsewhere (another device, a password change, a reset, a sign-out in another tab) ends at its next
 * request, keeping for the sign-in page and the page's script which of those ended it.
 */
export async function endRevoked(request: FastifyRequest): Promise<void> {
  expire(request, await whyRevoked(request), { told: false, recorded: true });
}

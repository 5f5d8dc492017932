// What the session cookie holds, and the only functions that write it: each write has a name, and `expire` is the
// only way a session ends (it always revokes the session's id, so an older copy of the cookie is dead too).
import { hash, randomUUID } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { registerSession, sessionEnded, sessionSeen } from "#server/account/sessions.ts";
import { serverTexts } from "#server/texts.ts";
import { packToken, type StoredToken, unpackToken } from "#server/token-pack.ts";
import type { LoginMessage, Site, UserInfo } from "#web/site.ts";
import { errorTexts } from "#web/texts/errors.ts";
import { loginTexts } from "#web/texts/login.ts";

/** The upstream token and who it belongs to. `pending` until a `Passed` MFA validation promotes it. */
export type Auth = {
  stage: "pending" | "signed-in";
  site: Site;
  userName: string;
  loginMessage: LoginMessage;
  token: string;
  /** The company short name a client signed in with (empty for vendors and link sign-ins). */
  company?: string;
};

/** A message (and optional same-origin path) carried to the login page: requirements 2.2's navigation state. */
/** A notice for the next sign-in page; `ended` says why the session before it ended. */
export type Flash = { error: string; pathname?: string; ended?: EndReason };

/** What the session cookie holds. */
export type SessionFields = {
  /** The auth with its token packed when large (server/token-pack.ts), so the cookie stays within 4096 bytes. */
  auth: Omit<Auth, "token"> & StoredToken;
  perms: { info: UserInfo; at: number };
  /** The previous tracked path (requirements 4.8), or a digest of it when long. */
  lastPage: string;
  taxBridge: boolean;
  flash: Flash;
  /** When the session began (absolute lifetime) and was last seen (idle timeout), in ms. */
  born: number;
  seen: number;
  /** A fresh id at each step of signing in; every end of the session revokes it. */
  sid: string;
  /** When the current password last passed the test call: the change call needs one, once (SECURITY.md). */
  passwordTested: number;
  /** When the last MFA code was sent for this pending sign-in: a reload within the cooldown sends none. */
  codeSentAt: number;
};

declare module "@fastify/secure-session" {
  interface SessionData extends SessionFields {}
}

declare module "fastify" {
  interface FastifyRequest {
    /** The session's auth, read once per request and kept in step with every write below. */
    auth: Auth | undefined;
  }
  interface FastifyInstance {
    /** Where revoked session ids are kept: one store for the whole app (and, with Redis, every replica). */
    revocations: { revoke(sid: string): void | Promise<void>; has(sid: string | undefined): boolean };
  }
}

/** Why a session ended: each reason has its message on the sign-in page (none for a plain sign-out). */
export type EndReason =
  | "signed-out"
  | "replaced"
  | "revoked"
  | "idle"
  | "lifetime"
  | "upstream-refused"
  | "code-not-sent"
  | "mfa-attempts"
  | "too-large"
  | "not-signed-in";

/** A token longer than this is refused before any work on it (packing it could not fit a 4096-byte cookie anyway). */
export const MAX_TOKEN_CHARACTERS = 8192;
/**
 * A token the portal can send back: visible ASCII, no space (a bearer token's characters). Anything else could not be
 * written into an Authorization header (every later call would throw) or would come back trimmed.
 */
export const sendableToken = (token: string) => /^[\x21-\x7e]+$/.test(token);
/** What changes only in time (`seen`, a passed password test) is written at most this often: each write re-seals. */
export const RESEAL_GRANULARITY_MS = 60_000;
/** How long a passed password test allows the change call. */
export const PASSWORD_TEST_VALID_MS = 5 * 60_000;

const get = <K extends keyof SessionFields>(request: FastifyRequest, key: K): SessionFields[K] | undefined =>
  request.session.get(key);
/** A write after an `expire` that dropped the cookie keeps the cookie again (a new sign-in in the same request). */
function set<K extends keyof SessionFields>(request: FastifyRequest, key: K, value: SessionFields[K] | undefined) {
  request.session.deleted = false;
  request.session.set(key, value);
}

/** The session's auth as the cookie holds it (or nothing). */
export function readAuth(request: FastifyRequest): Auth | undefined {
  const stored = get(request, "auth");
  if (!stored) return undefined;
  const token = unpackToken(stored);
  if (token === undefined) return undefined;
  const { stage, site, userName, loginMessage, company } = stored;
  return { stage, site, userName, loginMessage, token, ...(company ? { company } : {}) };
}

function storeAuth(request: FastifyRequest, { token, ...rest }: Auth): void {
  set(request, "auth", { ...rest, ...packToken(token) });
  request.auth = { token, ...rest };
}

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
 * The session a page is framed and tracked as: a signed-in one on every page, one allowed only its password change
 * on its change-password form (`ownForm`) alone.
 */
export function signedInOn(request: FastifyRequest, ownForm: boolean): Auth | undefined {
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

/** Signing out ends tax-bridge mode: on a shared browser the next person starts afresh. An emptied cookie goes. */
export function leaveTaxBridge(request: FastifyRequest): void {
  if (!taxBridgeEntered(request)) return;
  set(request, "taxBridge", undefined);
  if (get(request, "flash") === undefined) request.session.delete();
}

/** The person was here now: the idle time starts again. */
export function markSeen(request: FastifyRequest, now: number): void {
  set(request, "seen", now);
  const sid = sessionId(request);
  if (request.auth?.stage === "signed-in" && sid) sessionSeen(request, request.auth, sid, now);
}

/**
 * The previous path as the session keeps it: itself when short and plain, a digest (no `/`) otherwise, so it takes
 * at most 64 bytes of the cookie's JSON (a quote or a non-ASCII character would be escaped to several).
 */
const pageDigest = (page: string) =>
  page.length <= 64 && /^[\x20-\x7e]*$/.test(page) && !/["\\]/.test(page)
    ? page
    : hash("sha256", page, "base64url").slice(0, 22);

/**
 * requirements 4.8: true when this path is a new visit (not `/`, not the previous path), which it then remembers. A
 * person's visit is also seen to the second (`personActed`, server/session/activity.ts): the cookie is written anyway.
 */
export function rememberVisit(request: FastifyRequest, page: string, now: number, personActed: boolean): boolean {
  const digest = pageDigest(page);
  if (page === "/" || get(request, "lastPage") === digest) return false;
  set(request, "lastPage", digest);
  if (!personActed) return true;
  const before = sessionTimes(request).seen;
  set(request, "seen", now); // the cookie is written for the visit anyway
  const sid = sessionId(request);
  // The registry's "last seen", like the cookie's idle clock, at most once a minute.
  if (now - before > RESEAL_GRANULARITY_MS && request.auth?.stage === "signed-in" && sid)
    sessionSeen(request, request.auth, sid, now);
  return true;
}

export function cachePermissions(request: FastifyRequest, info: UserInfo, now: number): void {
  set(request, "perms", { info, at: now });
}

/** docs/requirements.md: tax-bridge mode is on for a session that entered through `/tax-bridge/login`. */
export function enterTaxBridge(request: FastifyRequest): void {
  if (!taxBridgeEntered(request)) set(request, "taxBridge", true);
}

export function rememberCodeSent(request: FastifyRequest, now: number): void {
  set(request, "codeSentAt", now);
}

/**
 * A new session for a new sign-in (a login answer or a link sign-in). The previous session, whoever it was, is
 * revoked: a sign-in never carries on an older session's id, cookie copies or strikes.
 */
export function beginSignIn(request: FastifyRequest, auth: Auth, now: number): void {
  const previous = sessionId(request);
  if (previous) void request.server.revocations.revoke(previous);
  const taxBridge = taxBridgeEntered(request);
  request.session.regenerate([]);
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

/** requirements 4.4: a changed password ends the expired-password state; the passed test is used up. */
export function passwordChanged(request: FastifyRequest): void {
  set(request, "passwordTested", undefined);
  const auth = request.auth;
  if (auth?.loginMessage !== "Password Expired") return;
  storeAuth(request, { ...auth, loginMessage: "Success" });
}

/**
 * A passed test is written at most once a minute, like `seen`: a repeated test within the minute does not re-seal the
 * cookie. The earlier time counts, which can only shorten the window the change call has.
 */
export function recordPasswordTest(request: FastifyRequest, now: number): void {
  const tested = get(request, "passwordTested");
  if (tested === undefined || now - tested >= RESEAL_GRANULARITY_MS) set(request, "passwordTested", now);
}

export function forgetPasswordTest(request: FastifyRequest): void {
  if (get(request, "passwordTested") !== undefined) set(request, "passwordTested", undefined);
}

/** When the current password passed its test call lately, that time (once: the change call spends it). */
export function spendPasswordTest(request: FastifyRequest, now: number): number | undefined {
  const tested = get(request, "passwordTested");
  if (tested === undefined) return undefined;
  set(request, "passwordTested", undefined);
  return now - tested <= PASSWORD_TEST_VALID_MS ? tested : undefined;
}

export function takeFlash(request: FastifyRequest): Flash | undefined {
  const flash = get(request, "flash");
  if (flash) set(request, "flash", undefined);
  return flash;
}

/** Why the session this cookie carried ended, until the sign-in page has told the person. */
export const endedBy = (request: FastifyRequest): EndReason | undefined => get(request, "flash")?.ended;

/** What the sign-in page says about each way a session ends. */
export function endMessage(reason: EndReason, idleMinutes: number): string | undefined {
  switch (reason) {
    case "signed-out":
    case "replaced":
      return undefined;
    case "idle":
      return `${errorTexts.sessionExpired}. ${loginTexts.endedIdle(idleMinutes)}`;
    case "mfa-attempts":
      return serverTexts.mfaAttemptsExhausted.message;
    case "too-large":
      return serverTexts.sessionTooLarge.message;
    default:
      return errorTexts.sessionExpired;
  }
}

/** requirements 4.5: a session whose token the upstream refused on one of the server's own calls ends now. */
export function endIfRefused(request: FastifyRequest, refused: { has(token: string): boolean }): boolean {
  const token = request.auth?.token;
  if (token === undefined || !refused.has(token)) return false;
  expire(request, "upstream-refused");
  return true;
}

/**
 * The only way a session ends: its id is revoked, everything it held is dropped (the tax-bridge mode the person
 * entered with stays), and the sign-in page says why.
 */
export function expire(request: FastifyRequest, reason: EndReason, idleMinutes = 0): void {
  const sid = sessionId(request);
  if (sid) void request.server.revocations.revoke(sid);
  if (sid && request.auth?.stage === "signed-in") sessionEnded(request, request.auth, sid, reason);
  const taxBridge = taxBridgeEntered(request);
  request.session.regenerate([]);
  if (taxBridge) set(request, "taxBridge", true);
  const message = endMessage(reason, idleMinutes);
  if (message) set(request, "flash", { error: message, ended: reason });
  // Nothing left to carry: the browser drops the cookie instead of keeping an empty one.
  if (!taxBridge && !message) request.session.delete();
  request.auth = undefined;
  request.log.info({ event: "session-ended", reason }, "session ended");
}

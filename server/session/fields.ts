// What a session holds, the one reader and writer of it (`get`, `set`: only the modules of server/session/ use them, so
// every write has a name, server/session/writes.ts and lifecycle.ts), and the reads everyone else asks: how far the
// session is signed in (its standing), and what else it holds. The session's record lives in the ledger
// (server/stores/ledger.ts); its cookie carries the record's id and the next page's one-time notice (`flash`), which
// belongs to the browser, not to a session: the sign-in page after a session ended reads it.
import type { FastifyRequest } from "fastify";
import type { Auth, SessionRecord } from "#server/session/record.ts";
import type { FormAnswer } from "#web/protocol/form-answer.ts";
import type { EndReason } from "#web/protocol/session-end.ts";

export type { Auth } from "#server/session/record.ts";

/**
 * A notice for the next sign-in page: `ended` says why the session before it ended, and the page words it. `error`
 * is a notice already in words. `form`: what a form posted without script came to (its note, the IDs typed, never a
 * password), for the page its 303 leads to.
 */
export type Flash = { ended?: EndReason; error?: string; pathname?: string; form?: FormAnswer };

/** What the session cookie holds: the record's id, and the next page's notice. */
type CookieFields = { sid: string; flash: Flash };

declare module "@fastify/secure-session" {
  interface SessionData extends CookieFields {}
}

/** What a session holds: its record's fields, its id and the next page's notice. */
export type SessionFields = Omit<SessionRecord, "ended"> & CookieFields;

declare module "fastify" {
  interface FastifyRequest {
    /** The session's auth, read once per request and kept in step with every write below. */
    auth: Auth | undefined;
    /** The session's record as this request holds it: written back to the ledger once, when it answers. */
    record: { id: string; value: SessionRecord; changed: boolean } | undefined;
  }
}

/** A token longer than this is refused before any work on it. */
export const MAX_TOKEN_CHARACTERS = 8192;
/**
 * A token the portal can send back: visible ASCII, no space (a bearer token's characters). Anything else could not be
 * written into an Authorization header (every later call would throw) or would come back trimmed.
 */
export const sendableToken = (token: string) => /^[\x21-\x7e]+$/.test(token);
/** What changes only in time (`seen`) is written to the ledger at most this often. */
export const SEEN_GRANULARITY_MS = 60_000;

/** The requests that read the session and never write it: another site started them (server/plugins/csrf.ts). */
const readOnly = new WeakSet<FastifyRequest>();

/** This request only reads the session (the session plugin decides it once, as the request arrives). */
export function readOnlySession(request: FastifyRequest): void {
  readOnly.add(request);
  request.session.changed = false;
}

/** Whether this request may write the session. */
export const mayWrite = (request: FastifyRequest): boolean => !readOnly.has(request);

const cookieKey = (key: keyof SessionFields): key is keyof CookieFields => key === "sid" || key === "flash";

/**
 * The one reader of what a session holds: only the modules of server/session/ call it. A request refused before its
 * session was read (another site's form) holds none: nothing in it.
 */
export function get<K extends keyof SessionFields>(request: FastifyRequest, key: K): SessionFields[K] | undefined {
  if (key === "flash")
    return (request.session as FastifyRequest["session"] | undefined)?.get("flash") as SessionFields[K];
  if (key === "sid") return request.record?.id as SessionFields[K] | undefined;
  return request.record?.value[key as keyof SessionRecord] as SessionFields[K] | undefined;
}

/**
 * The one writer: only the named writes of server/session/ call it. False, writing nothing, in a request that may only
 * read the session, or for a record this request does not hold.
 */
export function set<K extends keyof SessionFields>(
  request: FastifyRequest,
  key: K,
  value: SessionFields[K] | undefined,
): boolean {
  if (!mayWrite(request)) return false;
  if (cookieKey(key)) {
    request.session.deleted = false;
    request.session.set(key, value as never);
    return true;
  }
  const record = request.record;
  if (!record) return false;
  const next = { ...record.value, [key]: value };
  if (value === undefined) delete next[key as keyof SessionRecord];
  record.value = next as SessionRecord;
  record.changed = true;
  return true;
}

/**
 * A new record for a new step of signing in, in the ledger at once (what the same request does next, ending it or
 * counting the person's sessions, finds it there); its cookie carries only its id (the notice is spent).
 */
export function begin(request: FastifyRequest, id: string, value: SessionRecord): void {
  if (!mayWrite(request)) return;
  request.session.regenerate([]);
  request.session.set("sid", id);
  request.server.ledger.write(id, value);
  request.record = { id, value, changed: false };
  request.auth = value.auth;
}

/** The request holds no session any more: the cookie is emptied (its record was ended first, lifecycle.ts). */
export function clear(request: FastifyRequest): void {
  if (mayWrite(request)) request.session.regenerate([]);
  request.record = undefined;
}

/** The browser drops the session's cookie instead of keeping an empty one. */
export function discard(request: FastifyRequest): void {
  if (mayWrite(request)) request.session.delete();
}

/** The auth written, and `request.auth` kept in step. */
export function storeAuth(request: FastifyRequest, auth: Auth): void {
  if (set(request, "auth", auth)) request.auth = auth;
}

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

// What the session cookie holds, and the one reader and writer of its fields (`get`, `set`): only the modules of
// server/session/ use them, so every write has a name (server/session/writes.ts, lifecycle.ts).
import type { FastifyRequest } from "fastify";
import type { RevocationStore } from "#server/stores/revocations.ts";
import { packToken, type StoredToken, unpackToken } from "#server/token-pack.ts";
import type { FormAnswer } from "#web/protocol/form-answer.ts";
import type { EndReason } from "#web/protocol/session-end.ts";
import type { LoginMessage, Site, UserInfo } from "#web/site.ts";

/** The upstream token and who it belongs to. `pending` until a `Passed` MFA validation promotes it. */
export type Auth = {
  stage: "pending" | "signed-in";
  site: Site;
  userName: string;
  loginMessage: LoginMessage;
  token: string;
  /** The company short name a client signed in with, or its link's answer named (empty for vendors). */
  company?: string;
  /**
   * The upstream did not say whose account this session opened (a link answer without the user, or a client's without
   * its company): the session is a person of its own by this random id (server/account/person.ts).
   */
  alone?: string;
  /**
   * The sign-in answer's message was none the portal knows (requirements 9 lists three): the account's state was not
   * told, so no section opens before the permissions call succeeds with the token (docs/decisions.md).
   */
  untold?: true;
};

/**
 * A notice for the next sign-in page: `ended` says why the session before it ended, and the page words it. `error`
 * is a notice already in words, as cookies sealed before the reason alone was kept carry it. `form`: what a form
 * posted without script came to (its note, the IDs typed, never a password), for the page its 303 leads to.
 */
export type Flash = { ended?: EndReason; error?: string; pathname?: string; form?: FormAnswer };

/** What the session cookie holds. */
export type SessionFields = {
  /** The auth with its token packed when large (server/token-pack.ts), so the cookie stays within 4096 bytes. */
  auth: Omit<Auth, "token"> & StoredToken;
  perms: { info: UserInfo; at: number };
  taxBridge: boolean;
  flash: Flash;
  /** When the session began (absolute lifetime) and was last seen (idle timeout), in ms. */
  born: number;
  seen: number;
  /** A fresh id at each step of signing in; every end of the session revokes it. */
  sid: string;
  /** When the current password last passed the test call: the change call needs one, once (SECURITY.md). */
  passwordTested: number;
  /**
   * What the last request to end other sessions did, for the page it leads back to, once: the page's note comes from
   * here, never from its address (server/pages/account-view.ts).
   */
  endResult: { outcome: string; count?: number };
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
    /**
     * Where revoked session ids are kept: one store for the whole app (and, with Redis, every replica), reached only
     * here (`request.server.revocations`). The stores own it for their start and close.
     */
    revocations: RevocationStore;
  }
}

/** A token longer than this is refused before any work on it (packing it could not fit a 4096-byte cookie anyway). */
export const MAX_TOKEN_CHARACTERS = 8192;
/**
 * A token the portal can send back: visible ASCII, no space (a bearer token's characters). Anything else could not be
 * written into an Authorization header (every later call would throw) or would come back trimmed.
 */
export const sendableToken = (token: string) => /^[\x21-\x7e]+$/.test(token);
/** What changes only in time (`seen`, a passed password test) is written at most this often: each write re-seals. */
export const RESEAL_GRANULARITY_MS = 60_000;

/** The requests that read the session and never write it: another site started them (server/plugins/csrf.ts). */
const readOnly = new WeakSet<FastifyRequest>();

/**
 * This request only reads the session (the session plugin decides it once, as the request arrives): nothing below
 * writes it, and a cookie sealed under an older key is not sealed again.
 */
export function readOnlySession(request: FastifyRequest): void {
  readOnly.add(request);
  request.session.changed = false;
}

/** Whether this request may write the session. */
export const mayWrite = (request: FastifyRequest): boolean => !readOnly.has(request);

/**
 * The one reader of the cookie's fields: only the modules of server/session/ call it. A request refused before its
 * session was read (another site's form) holds none: nothing in it.
 */
export const get = <K extends keyof SessionFields>(request: FastifyRequest, key: K): SessionFields[K] | undefined =>
  (request.session as FastifyRequest["session"] | undefined)?.get(key);
/**
 * The one writer of the cookie's fields: only the named writes of server/session/ call it. A write after an `expire`
 * that dropped the cookie keeps the cookie again (a new sign-in in the same request). False, writing nothing, in a
 * request that may only read the session.
 */
export function set<K extends keyof SessionFields>(
  request: FastifyRequest,
  key: K,
  value: SessionFields[K] | undefined,
): boolean {
  if (!mayWrite(request)) return false;
  request.session.deleted = false;
  request.session.set(key, value);
  return true;
}

/** Everything the session holds is dropped, for a new step of signing in or its end (its writer, as `set` is). */
export function clear(request: FastifyRequest): void {
  if (mayWrite(request)) request.session.regenerate([]);
}

/** The browser drops the session's cookie instead of keeping an empty one. */
export function discard(request: FastifyRequest): void {
  if (mayWrite(request)) request.session.delete();
}

/** The session's auth as the cookie holds it (or nothing). */
export function readAuth(request: FastifyRequest): Auth | undefined {
  const stored = get(request, "auth");
  if (!stored) return undefined;
  const token = unpackToken(stored);
  if (token === undefined) return undefined;
  const { stage, site, userName, loginMessage, company, alone, untold } = stored;
  return {
    stage,
    site,
    userName,
    loginMessage,
    token,
    ...(company ? { company } : {}),
    ...(alone ? { alone } : {}),
    ...(untold ? { untold } : {}),
  };
}

/** The auth written, its token packed when large, and `request.auth` kept in step. */
export function storeAuth(request: FastifyRequest, { token, ...rest }: Auth): void {
  set(request, "auth", { ...rest, ...packToken(token) });
  request.auth = { token, ...rest };
}

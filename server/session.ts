// What the encrypted session cookie holds, and the only functions that change it.
import { randomUUID } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { packToken, type StoredToken, unpackToken } from "#server/token-pack.ts";
import type { LoginMessage, Site, UserInfo } from "#web/site.ts";

/** The upstream token and who it belongs to. `pending` until a `Passed` MFA validation promotes it. */
export type Auth = {
  stage: "pending" | "signed-in";
  site: Site;
  userName: string;
  loginMessage: LoginMessage;
  token: string;
};

/** The auth as the cookie holds it: a large token is packed, so the cookie stays within the browser's 4096 bytes. */
type StoredAuth = Omit<Auth, "token"> & StoredToken;

/** A message (and optional same-origin path) carried to the login page: SPEC.md 2.2's navigation state. */
export type Flash = { error: string; pathname?: string };

/** What the session cookie holds. */
export type SessionData = {
  auth: StoredAuth;
  perms: { info: UserInfo; at: number };
  lastPage: string;
  taxBridge: boolean;
  flash: Flash;
  /** When the session began (absolute lifetime) and was last seen (idle timeout), in ms. */
  born: number;
  seen: number;
  /** A fresh id at each step of signing in; sign out revokes it so an old copy of the cookie is dead. */
  sid: string;
};

/**
 * One request's session: it reads what the cookie held (frozen, shared with other requests bearing the same cookie)
 * and writes to a copy of its own, marking itself changed so the answer re-issues the cookie.
 */
export class Session {
  #data: Readonly<Partial<SessionData>>;
  #own = false;
  changed: boolean;

  constructor(data: Readonly<Partial<SessionData>> = {}, changed = false) {
    this.#data = data;
    this.changed = changed;
  }

  get<K extends keyof SessionData>(key: K): SessionData[K] | undefined {
    return this.#data[key];
  }

  set<K extends keyof SessionData>(key: K, value: SessionData[K] | undefined): void {
    const data: Partial<SessionData> = this.#own ? this.#data : { ...this.#data };
    if (value === undefined) delete data[key];
    else data[key] = value;
    this.#data = data;
    this.#own = true;
    this.changed = true;
  }

  /** Empties the session, keeping only the fields named. */
  regenerate(keep: (keyof SessionData)[] = []): void {
    const kept = keep.filter((key) => this.#data[key] !== undefined).map((key) => [key, this.#data[key]]);
    this.#data = Object.fromEntries(kept) as Partial<SessionData>;
    this.#own = true;
    this.changed = true;
  }

  data(): Readonly<Partial<SessionData>> {
    return this.#data;
  }
}

/** Each stored auth unpacked once per request. */
const unpacked = new WeakMap<StoredAuth, Auth>();

export function currentAuth(request: FastifyRequest): Auth | undefined {
  const stored = request.session.get("auth");
  if (!stored) return undefined;
  const known = unpacked.get(stored);
  if (known) return known;
  const token = unpackToken(stored);
  if (token === undefined) return undefined;
  const { stage, site, userName, loginMessage } = stored;
  const auth: Auth = { stage, site, userName, loginMessage, token };
  unpacked.set(stored, auth);
  return auth;
}

/** Changes the auth of the current session (its token packed when large). */
export function storeAuth(request: FastifyRequest, { token, ...rest }: Auth): void {
  request.session.set("auth", { ...rest, ...packToken(token) });
}

export function signedIn(request: FastifyRequest): Auth | undefined {
  const auth = currentAuth(request);
  return auth?.stage === "signed-in" ? auth : undefined;
}

/** A fresh session at each step of signing in, keeping only the tax-bridge mode the user entered with. */
export function beginSession(request: FastifyRequest, auth: Auth, now: number): void {
  request.session.regenerate(["taxBridge"]);
  storeAuth(request, auth);
  request.session.set("sid", randomUUID());
  request.session.set("born", now);
  request.session.set("seen", now);
}

/** Ends the signed-in or pending state; the flash, if any, is shown by the login page. */
export function endSession(request: FastifyRequest, flash?: Flash): void {
  request.session.regenerate();
  if (flash) request.session.set("flash", flash);
}

/** Seconds until a session left alone from now on ends by the idle timeout. */
export function secondsUntilIdle(request: FastifyRequest, idleSeconds: number, now: number): number {
  const seen = request.session.get("seen") ?? now;
  return (seen + idleSeconds * 1000 - now) / 1000;
}

export function takeFlash(request: FastifyRequest): Flash | undefined {
  const flash = request.session.get("flash");
  if (flash) request.session.set("flash", undefined);
  return flash;
}

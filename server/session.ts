// What the encrypted session cookie holds, and the only functions that change it.
import { randomUUID } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { LoginMessage, Site, UserInfo } from "#web/site.ts";

/** The upstream token and who it belongs to. `pending` until a `Passed` MFA validation promotes it. */
export type Auth = {
  stage: "pending" | "signed-in";
  site: Site;
  userName: string;
  loginMessage: LoginMessage;
  token: string;
};

/** A message (and optional same-origin path) carried to the login page: SPEC.md 2.2's navigation state. */
export type Flash = { error: string; pathname?: string };

declare module "@fastify/secure-session" {
  interface SessionData {
    auth: Auth;
    perms: { info: UserInfo; at: number };
    lastPage: string;
    taxBridge: boolean;
    flash: Flash;
    /** When the session began (absolute lifetime) and was last seen (idle timeout), in ms. */
    born: number;
    seen: number;
    /** A fresh id at each step of signing in; sign out revokes it so an old copy of the cookie is dead. */
    sid: string;
    /** Codes refused during this pending sign-in. */
    mfaFailures: number;
  }
}

export const currentAuth = (request: FastifyRequest): Auth | undefined => request.session.get("auth");

export function signedIn(request: FastifyRequest): Auth | undefined {
  const auth = currentAuth(request);
  return auth?.stage === "signed-in" ? auth : undefined;
}

/** A fresh session at each step of signing in, keeping only the tax-bridge mode the user entered with. */
export function beginSession(request: FastifyRequest, auth: Auth, now: number): void {
  request.session.regenerate(["taxBridge"]);
  request.session.set("auth", auth);
  request.session.set("sid", randomUUID());
  request.session.set("born", now);
  request.session.set("seen", now);
}

/** Ends the signed-in or pending state; the flash, if any, is shown by the login page. */
export function endSession(request: FastifyRequest, flash?: Flash): void {
  request.session.regenerate();
  if (flash) request.session.set("flash", flash);
}

export function takeFlash(request: FastifyRequest): Flash | undefined {
  const flash = request.session.get("flash");
  if (flash) request.session.set("flash", undefined);
  return flash;
}

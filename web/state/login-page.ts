// The login page's shared state: active site, what the page shows, and the sign-in waiting for its MFA code.
import { computed, signal } from "@preact/signals-react";
import type { LoginMessage, Site } from "#web/site.ts";

/** What the login island shows: a login form, the Password Reset panel, or the multi-factor step (SPEC.md 2.2). */
export type LoginMode = "login" | "reset" | "mfa";

/** A login that returned a token: what the multi-factor step is given (SPEC.md 2.4). */
export type PendingSignIn = {
  site: Site;
  userName: string;
  loginMessage: LoginMessage;
  /** Known only when the user typed it on this page; carried to prefill the change-password form. */
  password?: string;
};

export const activeSite = signal<Site>("client");
export const mode = signal<LoginMode>("login");
export const pendingSignIn = signal<PendingSignIn | null>(null);
/** The error shown above the forms: a flash from the server or a lost session. */
export const pageError = signal<string | null>(null);

/** SPEC.md 4.1: the CLIENT / VENDOR toggle is disabled while a token is held (pending or, after MFA, signed in). */
export const tokenHeld = computed(() => pendingSignIn.value !== null);

export type LoginSeed = { activeSite?: Site; pending?: PendingSignIn; error?: string };

/**
 * Seeds the signals from the island's props. Called once per render root, before anything reads them: on the
 * server `renderToString` is synchronous, so one request's seed cannot leak into another's render.
 */
export function seedLoginPage(seed: LoginSeed): void {
  pendingSignIn.value = seed.pending ?? null;
  activeSite.value = seed.pending?.site ?? seed.activeSite ?? "client";
  mode.value = seed.pending ? "mfa" : "login";
  pageError.value = seed.error ?? null;
}

/** A login returned a usable token: the multi-factor step replaces the form. */
export function holdSignIn(pending: PendingSignIn): void {
  pendingSignIn.value = pending;
  pageError.value = null;
  mode.value = "mfa";
}

/** The held token is gone (SPEC.md 4.2, generate failed): back to the login form with the message. */
export function dropSignIn(message: string): void {
  pendingSignIn.value = null;
  pageError.value = message;
  mode.value = "login";
}

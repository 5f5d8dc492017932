// The login page's shared state: active site, what the page shows, what was typed, and the sign-in waiting for MFA.
import { computed, signal } from "@preact/signals-react";
import type { LoginMessage, Site } from "#web/site.ts";
import type { Remembered } from "#web/state/local-storage.ts";

/** What the login island shows: a login form, the Password Reset panel, or the multi-factor step (requirements 2.2). */
export type LoginMode = "login" | "reset" | "mfa";

/** A login that returned a token: what the multi-factor step is given (requirements 2.4). */
export type PendingSignIn = {
  site: Site;
  /** The company short name a client signed in with; empty for a vendor. With the site and the user ID, whose code the device keeps. */
  company: string;
  userName: string;
  loginMessage: LoginMessage;
  /** Not opened by the person: the step sends no code as it opens (web/components/mfa-step.tsx). */
  quiet?: true;
  /** Known only when the user typed it on this page; carried to prefill the change-password form. */
  password?: string;
  /**
   * Remember me as the form left it: the IDs to keep, or null to forget the site's. Known only on the page it was
   * typed on; the MFA step applies it when it opens, and "Use another account" takes it back (sign-in-undo.ts).
   */
  remember?: Remembered | null;
};

/** What a site's login form holds; kept here, not in the form, so switching tabs and back keeps it. */
export type LoginValues = { shortName: string; userName: string; password: string; remember: boolean };
const emptyValues = (): LoginValues => ({ shortName: "", userName: "", password: "", remember: false });

export const activeSite = signal<Site>("client");
export const mode = signal<LoginMode>("login");
export const pendingSignIn = signal<PendingSignIn | null>(null);
/** The error shown above the forms: a flash from the server or a lost session. */
export const pageError = signal<string | null>(null);
/** Each site's typed values; `null` until the form first opens and reads what this device remembers. */
export const typedValues = signal<Record<Site, LoginValues | null>>({ client: null, vendor: null });

/** requirements 4.1: the CLIENT / VENDOR toggle is disabled while a token is held (pending or, after MFA, signed in). */
export const tokenHeld = computed(() => pendingSignIn.value !== null);

export type LoginSeed = {
  activeSite?: Site;
  pending?: PendingSignIn;
  error?: string;
  /** The page opens on the reset panel (its link, or a reset form sent back). */
  reset?: boolean;
  /** A login form sent back: the IDs typed (never the password), which this device's remembered ones do not replace. */
  typed?: { shortName: string; userName: string; remember: boolean };
};

/**
 * Seeds the signals from the island's props. Called once per render root, before anything reads them: on the
 * server `renderToString` is synchronous, so one request's seed cannot leak into another's render.
 */
export function seedLoginPage(seed: LoginSeed): void {
  pendingSignIn.value = seed.pending ?? null;
  const site = seed.pending?.site ?? seed.activeSite ?? "client";
  activeSite.value = site;
  mode.value = seed.pending ? "mfa" : seed.reset ? "reset" : "login";
  pageError.value = seed.error ?? null;
  typedValues.value = { client: null, vendor: null };
  if (seed.typed) typedValues.value = { ...typedValues.value, [site]: { ...seed.typed, password: "" } };
}

/** A site's values as typed so far (empty before its form first opened). */
export const valuesOf = (site: Site): LoginValues => typedValues.value[site] ?? emptyValues();

/** Changes some of a site's values. */
export function typeValues(site: Site, change: Partial<LoginValues>): void {
  typedValues.value = { ...typedValues.value, [site]: { ...valuesOf(site), ...change } };
}

/** A login returned a usable token: the multi-factor step replaces the form. */
export function holdSignIn(pending: PendingSignIn): void {
  pendingSignIn.value = pending;
  pageError.value = null;
  mode.value = "mfa";
}

/**
 * The held token is gone (requirements 4.2, generate failed, the code's attempts ran out): back to the login form with
 * the message, its IDs kept and its password field empty, since that sign-in ended (issue 41).
 */
export function dropSignIn(message: string): void {
  const site = pendingSignIn.value?.site;
  if (site) typeValues(site, { password: "" });
  pendingSignIn.value = null;
  pageError.value = message;
  mode.value = "login";
}

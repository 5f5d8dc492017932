// Remember me for a sign-in that waits for its code: the login form's choice is applied when the MFA step opens, and
// what it replaced is kept for this tab until the code passes, so that "Use another account" puts the device back as
// it was (docs/decisions.md). Only the MFA step's chunk imports this: the login page's first load does not carry it.
import { type Site, sites } from "#web/site.ts";
import {
  forgetLogin,
  lastSite,
  type Remembered,
  rememberedLogin,
  rememberLogin,
  rememberSite,
} from "#web/state/local-storage.ts";

/** Session storage: the tab's own, gone with it. Never a password; the IDs only when the device already kept them. */
const KEY = "signInUndo";

/** What a sign-in found on the device: the remembered login of its site, and the last site. */
type Undo = { site: Site; userName: string; login: Remembered | null; lastSite: Site | null };

function tab(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

const isSite = (value: unknown): value is Site => sites.some((site) => site === value);
const isRemembered = (value: unknown): value is Remembered =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as Remembered).shortName === "string" &&
  typeof (value as Remembered).userName === "string";

function takeUndo(): Undo | undefined {
  try {
    const text = tab()?.getItem(KEY);
    tab()?.removeItem(KEY);
    const value: unknown = text ? JSON.parse(text) : undefined;
    if (typeof value !== "object" || value === null) return undefined;
    const { site, userName, login, lastSite: last } = value as Record<keyof Undo, unknown>;
    if (!isSite(site) || typeof userName !== "string") return undefined;
    if (login !== null && !isRemembered(login)) return undefined;
    if (last !== null && !isSite(last)) return undefined;
    return { site, userName, login, lastSite: last };
  } catch {
    return undefined; // no storage, or not ours: nothing to put back
  }
}

/**
 * A login was accepted and its MFA step opened: remember its IDs (or forget the site's, when Remember me was not
 * checked) and its site, keeping what they replace. `remember` is the form's choice, known on the page it was typed on.
 */
export function rememberPending(site: Site, userName: string, remember: Remembered | null): void {
  const undo: Undo = { site, userName, login: rememberedLogin(site), lastSite: lastSite() };
  try {
    tab()?.setItem(KEY, JSON.stringify(undo));
  } catch {
    // Without storage there is nothing to put back later; remembering still works.
  }
  if (remember) rememberLogin(site, remember);
  else forgetLogin(site);
  rememberSite(site);
}

/**
 * "Use another account": this sign-in leaves no trace; the device remembers what it did before it, except the account
 * just cancelled, which the form that follows never offers again (the person asked for another one).
 */
export function forgetPending(site: Site, userName: string): void {
  const undo = takeUndo();
  const ours = undo && undo.site === site && undo.userName === userName ? undo : undefined;
  if (ours) rememberSite(ours.lastSite);
  const before = ours ? ours.login : rememberedLogin(site);
  if (before && before.userName.toLowerCase() !== userName.toLowerCase()) rememberLogin(site, before);
  else forgetLogin(site);
}

/** The code passed: the device is verified for this account, and what it remembers stays. */
export function keepPending(): void {
  takeUndo();
}

// The browser local-storage keys of requirements 3 that the portal keeps (the token stays in the session cookie).
import { deviceKey, type Site } from "#web/site.ts";

/** the requirements' keys, and `lastSite`, ours: the site of the last accepted login, so the page opens on it next time. */
const KEYS = {
  shortName: "shortName",
  userName: "userName",
  vipUserName: "vipUserName",
  lastSite: "lastSite",
} as const;

/** Local storage can be missing or throw (private modes, disabled storage); remembering is then skipped. */
function storage(): Storage | undefined {
  try {
    return typeof window === "undefined" ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

const read = (key: string) => storage()?.getItem(key) ?? null;
function write(key: string, value: string | null): void {
  try {
    if (value === null) storage()?.removeItem(key);
    else storage()?.setItem(key, value);
  } catch {
    // A full or refused storage only costs the user the convenience.
  }
}

export type Remembered = { shortName: string; userName: string };

/** requirements 5: the saved login of a site, or null when no user ID is saved (the checkbox then starts unchecked). */
export function rememberedLogin(site: Site): Remembered | null {
  if (site === "vendor") {
    const userName = read(KEYS.vipUserName);
    return userName ? { shortName: "", userName } : null;
  }
  const userName = read(KEYS.userName);
  return userName ? { shortName: read(KEYS.shortName) ?? "", userName } : null;
}

/** Client saves short name and user ID; vendor saves the user ID only. */
export function rememberLogin(site: Site, login: Remembered): void {
  if (site === "vendor") {
    write(KEYS.vipUserName, login.userName);
    return;
  }
  write(KEYS.shortName, login.shortName);
  write(KEYS.userName, login.userName);
}

export function forgetLogin(site: Site): void {
  if (site === "vendor") {
    write(KEYS.vipUserName, null);
    return;
  }
  write(KEYS.shortName, null);
  write(KEYS.userName, null);
}

/** The site of the last accepted login on this device, or null when none was kept. */
export function lastSite(): Site | null {
  const value = read(KEYS.lastSite);
  return value === "client" || value === "vendor" ? value : null;
}
/** Keeps the site of an accepted login; null forgets it (a cancelled sign-in puts back what was there). */
export const rememberSite = (site: Site | null) => write(KEYS.lastSite, site);

/** requirements 4.2: the last accepted multi-factor code of this device and person (a client's company included). */
export const storedMfaCode = (site: Site, company: string, userName: string) =>
  read(deviceKey(site, company, userName));
export const storeMfaCode = (site: Site, company: string, userName: string, code: string | null) =>
  write(deviceKey(site, company, userName), code);

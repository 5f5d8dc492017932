// The browser local-storage keys of requirements 3 that the portal keeps (the token stays in the session cookie).
import { foldAscii } from "#web/protocol/person-key.ts";
import { deviceKey, deviceOwnerKey, type Site } from "#web/site.ts";

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

/**
 * requirements 4.2: the last accepted multi-factor code of this device and user, when it was accepted for this
 * company's user (a vendor has no company). A code kept for another company's user of the same ID is not sent.
 */
export function storedMfaCode(site: Site, company: string, userName: string): string | null {
  const code = read(deviceKey(site, userName));
  if (site === "vendor" || code === null) return code;
  return read(deviceOwnerKey(site, userName)) === foldAscii(company) ? code : null;
}

/**
 * Keeps the accepted code under the device key and, for a client, whose it is beside it. Null drops the code this
 * user's own (a stored code the upstream refused): another company's user's code under the key stays.
 */
export function storeMfaCode(site: Site, company: string, userName: string, code: string | null): void {
  if (code === null && site === "client" && storedMfaCode(site, company, userName) === null) return;
  write(deviceKey(site, userName), code);
  if (site === "client") write(deviceOwnerKey(site, userName), code === null ? null : foldAscii(company));
}

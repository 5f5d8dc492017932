// The session cookie: sealed with AES-256-GCM (node:crypto), the first key sealing and every key opening (rotation).
// An opened cookie is remembered by its sealed text, so a signed-in user's every request does not decrypt and parse
// it again; what is remembered is frozen and shared, and a request that changes its session writes to its own copy.
import { createCipheriv, createDecipheriv } from "node:crypto";
import { pooledRandomBytes } from "#server/random-pool.ts";

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Cookies opened lately; beyond this the oldest is forgotten (each is a few KB, so this stays within a few MB). */
export const MAX_REMEMBERED_COOKIES = 2_000;

type Stored = Record<string, unknown>;
/** The sealed payload: the session's fields and when it was sealed (s), which bounds the cookie's life. */
type Sealed = { data: Stored; at: number };
type Opened = Sealed & { rotated: boolean };

/** `<ciphertext and tag>.<iv>`, base64url: nothing in it needs escaping in a cookie. */
export function seal(data: Stored, key: Buffer, nowMs: number): string {
  const iv = pooledRandomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const payload: Sealed = { data, at: Math.floor(nowMs / 1000) };
  const sealed = Buffer.concat([cipher.update(JSON.stringify(payload), "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `${sealed.toString("base64url")}.${iv.toString("base64url")}`;
}

function openWith(sealed: Buffer, iv: Buffer, key: Buffer): Sealed | undefined {
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv);
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    const plain = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
    const parsed: unknown = JSON.parse(plain.toString("utf8"));
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const { data, at } = parsed as Partial<Sealed>;
    return typeof data === "object" && data !== null && typeof at === "number" ? { data, at } : undefined;
  } catch {
    return undefined; // another key's cookie, or tampered with
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * Opens cookies with `keys`, remembering those opened lately (one memory per key set: a cookie opened with other
 * keys tells nothing about these).
 */
export function cookieOpener(keys: Buffer[], maxAgeSeconds: number) {
  // Found by the cookie's IV, then compared whole: hashing a fresh 2 KB key for the Map costs more than the compare.
  const remembered = new Map<string, { value: string; opened: Opened }>();
  /**
   * The session a cookie holds, frozen, and whether a key other than the first opened it (the cookie is then
   * re-issued); undefined when no key opens it or it is older than `maxAgeSeconds`.
   */
  return (value: string, nowMs: number): Opened | undefined => {
    const iv = value.slice(value.lastIndexOf(".") + 1);
    const known = remembered.get(iv);
    let opened = known?.value === value ? known.opened : undefined;
    if (opened === undefined) {
      opened = openAny(value, keys);
      if (opened === undefined) return undefined;
      // A Map iterates in insertion order: beyond the bound, the oldest entry goes.
      remembered.delete(iv);
      if (remembered.size >= MAX_REMEMBERED_COOKIES) remembered.delete(remembered.keys().next().value ?? "");
      remembered.set(iv, { value, opened });
    }
    return opened.at + maxAgeSeconds > nowMs / 1000 ? opened : undefined;
  };
}

function openAny(value: string, keys: Buffer[]): Opened | undefined {
  const [text = "", ivText = "", ...rest] = value.split(".");
  const sealed = Buffer.from(text, "base64url");
  const iv = Buffer.from(ivText, "base64url");
  if (rest.length > 0 || iv.length !== IV_BYTES || sealed.length <= TAG_BYTES) return undefined;
  for (const [index, key] of keys.entries()) {
    const found = openWith(sealed, iv, key);
    if (found) return deepFreeze({ ...found, rotated: index > 0 });
  }
  return undefined;
}

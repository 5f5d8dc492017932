// Password and secret handling for the sandbox: scrypt hashes, constant-time checks and the requirements 5 rules.
import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { strongPassword } from "#web/password-rules.ts";

interface ScryptHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

const KEY_LENGTH = 64;
const COST = { N: 16384, r: 8, p: 1 } as const;
// 128 * N * r bytes is 16 MiB at the default cost; leave room for a stored hash with a higher cost.
const MAX_MEMORY = 256 * 1024 * 1024;

// Unknown users are checked against this fixed hash so that they cost the same single scrypt
// as a wrong password: the answer time does not tell an unknown user from a wrong password.
const DUMMY_HASH: ScryptHash = {
  ...COST,
  salt: Buffer.from("AAIDK9zlQeallCaBNqL-7A", "base64url"),
  key: Buffer.from(
    "jYA4C25Wl0YiZPz6jamNeZ0_fb9j1uZFoTARfGK8AfAC9Ni6BNBmkiH8Im7gdEo5nfvl9I8e7eaqp6uQQ00afw",
    "base64url",
  ),
};

function derive(password: string, hash: Omit<ScryptHash, "key">, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, hash.salt, length, { N: hash.N, r: hash.r, p: hash.p, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

function parseHash(stored: string): ScryptHash | undefined {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !key) return undefined;
  return {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    salt: Buffer.from(salt, "base64url"),
    key: Buffer.from(key, "base64url"),
  };
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, { ...COST, salt }, KEY_LENGTH);
  return ["scrypt", COST.N, COST.r, COST.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** True when the password matches the stored hash; an absent hash always costs one scrypt and fails. */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const parsed = stored === undefined ? undefined : parseHash(stored);
  const hash = parsed ?? DUMMY_HASH;
  const key = await derive(password, hash, hash.key.length);
  return parsed !== undefined && timingSafeEqual(key, hash.key);
}

/** The password rules of requirements 5, as one yes/no: the same schema the portal and its forms use. */
export function meetsPasswordRules(password: string): boolean {
  return strongPassword.safeParse(password).success;
}

/** Constant-time comparison of two short secrets of any length (codes, not passwords). */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}

/** Tokens are stored only as their SHA-256, so a copy of the database signs nobody in. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

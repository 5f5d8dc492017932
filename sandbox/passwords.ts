// Password and secret handling for the sandbox: scrypt hashes, constant-time checks and the requirements 5 rules.
import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { passwordProblem } from "#web/password-rules.ts";

/** scrypt's work factors: N (CPU and memory), r (block size), p (parallelism). */
export interface ScryptCost {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

interface ScryptHash extends ScryptCost {
  salt: Buffer;
  key: Buffer;
}

const KEY_LENGTH = 64;
/** Every password a person keeps is hashed at this cost (about 50 ms of CPU). */
export const FULL_COST: ScryptCost = { N: 16384, r: 8, p: 1 };
/**
 * Tests only, through the sandbox's `testPasswordCost` option: a sixteenth of the work, so a test's sandbox seeds its
 * accounts and checks a sign-in's password in milliseconds. Never the cost of a sandbox a person runs.
 */
export const TEST_COST: ScryptCost = { N: 1024, r: 8, p: 1 };
// 128 * N * r bytes is 16 MiB at the full cost; leave room for a stored hash with a higher cost.
const MAX_MEMORY = 256 * 1024 * 1024;

// Unknown users are checked with this fixed salt, at the cost the sandbox hashes at, so that they cost the same single
// scrypt as a wrong password: the answer time does not tell an unknown user from a wrong password.
const DUMMY_SALT = Buffer.from("AAIDK9zlQeallCaBNqL-7A", "base64url");

function derive(password: string, hash: ScryptCost & { salt: Buffer }, length: number): Promise<Buffer> {
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

export async function hashPassword(password: string, cost: ScryptCost = FULL_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, { ...cost, salt }, KEY_LENGTH);
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/**
 * True when the password matches the stored hash, checked at the hash's own cost; an absent hash always costs one
 * scrypt at `cost` (the one the sandbox hashes at) and fails.
 */
export async function verifyPassword(
  password: string,
  stored: string | undefined,
  cost: ScryptCost = FULL_COST,
): Promise<boolean> {
  const parsed = stored === undefined ? undefined : parseHash(stored);
  const key = await derive(password, parsed ?? { ...cost, salt: DUMMY_SALT }, parsed?.key.length ?? KEY_LENGTH);
  return parsed !== undefined && timingSafeEqual(key, parsed.key);
}

/** The password rules of requirements 5, as one yes/no: the same schema the portal and its forms use. */
export function meetsPasswordRules(password: string): boolean {
  return passwordProblem(password) === undefined;
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

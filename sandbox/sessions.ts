// Bearer tokens, one-time MFA codes and link-login uuids of the sandbox, with their lifetimes.
import { randomInt, randomUUID } from "node:crypto";
import { z } from "zod";
import { inTransaction, type SandboxDb } from "#sandbox/db.ts";
import { passedOnDevice, rememberOnDevice } from "#sandbox/mfa-devices.ts";
import { hashToken, randomToken, secretsEqual } from "#sandbox/passwords.ts";
import { type Site, toUser, type UserRecord } from "#sandbox/users.ts";
import { SIGN_IN_LINK_HOURS } from "#web/texts/link-login.ts";

const MINUTE_MS = 60_000;
export const TOKEN_LIFETIME_MS = 8 * 60 * MINUTE_MS;
export const MFA_CODE_LIFETIME_MS = 10 * MINUTE_MS;
/** As long as the portal tells a person a link works, which is what the link's mail says too. */
export const LINK_LOGIN_LIFETIME_MS = SIGN_IN_LINK_HOURS * 60 * MINUTE_MS;
// A token that guessed wrong this often validates nothing more: the attacker must sign in
// again (one scrypt each) instead of walking the million codes on one token.
export const MAX_FAILED_VALIDATIONS = 10;

export interface Session {
  tokenHash: string;
  verified: boolean;
  failedValidations: number;
  user: UserRecord;
}

const sessionRow = z.object({
  token_hash: z.string(),
  verified: z.number(),
  failed_validations: z.number(),
});

export function issueToken(db: SandboxDb, userId: number, now: number, verified: boolean): string {
  const token = randomToken();
  db.prepare("DELETE FROM tokens WHERE expires_at <= ?").run(now);
  db.prepare("INSERT INTO tokens (token_hash, user_id, expires_at, verified) VALUES (?, ?, ?, ?)").run(
    hashToken(token),
    userId,
    now + TOKEN_LIFETIME_MS,
    verified ? 1 : 0,
  );
  return token;
}

/** The live session a bearer token stands for: known, unexpired, unrevoked, user not deactivated. */
export function findSession(db: SandboxDb, token: string, now: number): Session | undefined {
  const row = db
    .prepare(
      `SELECT tokens.token_hash, tokens.verified, tokens.failed_validations, users.*
       FROM tokens JOIN users ON users.id = tokens.user_id
       WHERE tokens.token_hash = ? AND tokens.revoked = 0 AND tokens.expires_at > ?`,
    )
    .get(hashToken(token), now);
  if (row === undefined) return undefined;
  const session = sessionRow.parse(row);
  const user = toUser(row);
  if (user.loginMessage === "Deactivated") return undefined;
  return {
    tokenHash: session.token_hash,
    verified: session.verified === 1,
    failedValidations: session.failed_validations,
    user,
  };
}

export function revokeTokens(db: SandboxDb, userId: number): number {
  return db.prepare("UPDATE tokens SET revoked = 1 WHERE user_id = ? AND revoked = 0").run(userId).changes as number;
}

/** A fresh six-digit code for this sign-in (its token), replacing any earlier one of it: the code that is mailed. */
export function replaceMfaCode(db: SandboxDb, session: Session, now: number): string {
  const code = String(randomInt(1_000_000)).padStart(6, "0");
  db.prepare(
    `INSERT INTO mfa_codes (token_hash, code, expires_at) VALUES (?, ?, ?)
     ON CONFLICT (token_hash) DO UPDATE SET code = excluded.code, expires_at = excluded.expires_at`,
  ).run(session.tokenHash, code, now + MFA_CODE_LIFETIME_MS);
  return code;
}

const codeRow = z.object({ code: z.string(), expires_at: z.number() });

/**
 * Passed when the code is the one mailed for this sign-in (its newest, unexpired; spent here), or the code the user
 * last passed on the device whose id the portal sent (the device memory of requirements 4.2). A passed code is
 * remembered for that device; without a device id nothing is remembered. Passing verifies the token.
 */
export function validateMfaCode(
  db: SandboxDb,
  session: Session,
  code: string,
  deviceId: string | undefined,
  now: number,
): boolean {
  return inTransaction(db, (): boolean => {
    if (session.failedValidations >= MAX_FAILED_VALIDATIONS) return false;
    const userId = session.user.id;
    const mailed = db.prepare("SELECT code, expires_at FROM mfa_codes WHERE token_hash = ?").get(session.tokenHash);
    const mailedCode = mailed === undefined ? undefined : codeRow.parse(mailed);
    const matchesMailed =
      mailedCode !== undefined && mailedCode.expires_at > now && secretsEqual(mailedCode.code, code);
    const matchesDevice = deviceId !== undefined && passedOnDevice(db, userId, deviceId, code);
    if (!matchesMailed && !matchesDevice) {
      db.prepare("UPDATE tokens SET failed_validations = failed_validations + 1 WHERE token_hash = ?").run(
        session.tokenHash,
      );
      return false;
    }
    if (matchesMailed) db.prepare("DELETE FROM mfa_codes WHERE token_hash = ?").run(session.tokenHash);
    if (deviceId !== undefined) rememberOnDevice(db, userId, deviceId, code, now);
    db.prepare("UPDATE tokens SET verified = 1 WHERE token_hash = ?").run(session.tokenHash);
    return true;
  });
}

/** At most this many sign-in links per user within SIGN_IN_LINK_WINDOW_MS, whoever asks for them. */
const SIGN_IN_LINKS_PER_WINDOW = 5;
const SIGN_IN_LINK_WINDOW_MS = 10 * MINUTE_MS;

const countRow = z.object({ count: z.number() });

/** Whether the user had their share of sign-in links lately (a link's issue time is its expiry less its lifetime). */
export function signInLinksThrottled(db: SandboxDb, userId: number, now: number): boolean {
  const row = countRow.parse(
    db
      .prepare("SELECT count(*) AS count FROM link_logins WHERE user_id = ? AND expires_at > ?")
      .get(userId, now - SIGN_IN_LINK_WINDOW_MS + LINK_LOGIN_LIFETIME_MS),
  );
  return row.count >= SIGN_IN_LINKS_PER_WINDOW;
}

export function mintLinkLogin(db: SandboxDb, userId: number, now: number): string {
  const uuid = randomUUID();
  db.prepare("INSERT INTO link_logins (uuid, user_id, expires_at) VALUES (?, ?, ?)").run(
    uuid,
    userId,
    now + LINK_LOGIN_LIFETIME_MS,
  );
  return uuid;
}

/** Spends a link-login uuid of that site; undefined when unknown, used, expired or not allowed. */
export function consumeLinkLogin(db: SandboxDb, uuid: string, site: Site, now: number): UserRecord | undefined {
  return inTransaction(db, (): UserRecord | undefined => {
    const row = db
      .prepare(
        `SELECT users.* FROM link_logins JOIN users ON users.id = link_logins.user_id
         WHERE link_logins.uuid = ? AND link_logins.used_at IS NULL AND link_logins.expires_at > ?`,
      )
      .get(uuid, now);
    if (row === undefined) return undefined;
    const user = toUser(row);
    // A link for the other site is left unspent, so the right sign-in page can still use it.
    if (user.site !== site) return undefined;
    db.prepare("UPDATE link_logins SET used_at = ? WHERE uuid = ?").run(now, uuid);
    return user.loginMessage === "Deactivated" ? undefined : user;
  });
}

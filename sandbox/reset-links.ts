// The sandbox's one-time password-reset links: issued by a reset request, spent once by setting a new password.
import { z } from "zod";
import { inTransaction, type SandboxDb } from "#sandbox/db.ts";
import { hashToken, randomToken } from "#sandbox/passwords.ts";
import { revokeTokens } from "#sandbox/sessions.ts";
import { toUser, type UserRecord, updatePassword } from "#sandbox/users.ts";

/** How long a mailed reset link works: long enough to read the mail, short enough that an old inbox is no key. */
export const RESET_LINK_LIFETIME_MS = 30 * 60_000;

/** What a token stands for now; only a `pending` one may set a password. */
export type ResetLink =
  | { state: "pending"; user: UserRecord }
  | { state: "used" }
  | { state: "expired" }
  /** Never issued, mistyped, replaced by a newer request, or its user deactivated since. */
  | { state: "unknown" };

const resetRow = z.object({ reset_expires_at: z.number(), reset_used_at: z.number().nullable() });

/** A new link's token for the user; it replaces any earlier link of theirs, which then opens nothing. */
export function issueResetLink(db: SandboxDb, userId: number, now: number): string {
  const token = randomToken();
  db.prepare(
    `INSERT INTO password_resets (user_id, token_hash, expires_at, used_at) VALUES (?, ?, ?, NULL)
     ON CONFLICT (user_id) DO UPDATE
     SET token_hash = excluded.token_hash, expires_at = excluded.expires_at, used_at = NULL`,
  ).run(userId, hashToken(token), now + RESET_LINK_LIFETIME_MS);
  return token;
}

/** Reads what a token stands for without spending it: opening the link must not use it up. */
export function findResetLink(db: SandboxDb, token: string, now: number): ResetLink {
  const row = db
    .prepare(
      `SELECT users.*, password_resets.expires_at AS reset_expires_at, password_resets.used_at AS reset_used_at
       FROM password_resets JOIN users ON users.id = password_resets.user_id
       WHERE password_resets.token_hash = ?`,
    )
    .get(hashToken(token));
  if (row === undefined) return { state: "unknown" };
  const reset = resetRow.parse(row);
  if (reset.reset_used_at !== null) return { state: "used" };
  if (reset.reset_expires_at <= now) return { state: "expired" };
  const user = toUser(row);
  return user.loginMessage === "Deactivated" ? { state: "unknown" } : { state: "pending", user };
}

/**
 * Spends a pending link: the user's password becomes `passwordHash` and their sessions end, in one transaction, so of
 * two uses at once only one sets a password. Answers what the link was; anything but `pending` changed nothing.
 */
export function spendResetLink(db: SandboxDb, token: string, passwordHash: string, now: number): ResetLink {
  return inTransaction(db, (): ResetLink => {
    const link = findResetLink(db, token, now);
    if (link.state !== "pending") return link;
    db.prepare("UPDATE password_resets SET used_at = ? WHERE user_id = ?").run(now, link.user.id);
    // A chosen password that meets the rules: the account is no longer expired.
    updatePassword(db, link.user.id, passwordHash, "Success");
    // Whoever knew the old password is signed out too: a reset is often how an owner takes an account back.
    revokeTokens(db, link.user.id);
    return link;
  });
}

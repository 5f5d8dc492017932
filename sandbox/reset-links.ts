// The sandbox's one-time password-reset links: issued by a reset request, spent once by setting a new password.
import { z } from "zod";
import { inTransaction, type SandboxDb } from "#sandbox/db.ts";
import { hashToken, randomToken } from "#sandbox/passwords.ts";
import { revokeTokens } from "#sandbox/sessions.ts";
import { toUser, type UserRecord, updatePassword } from "#sandbox/users.ts";

/** How long a mailed reset link works: long enough to read the mail, short enough that an old inbox is no key. */
export const RESET_LINK_LIFETIME_MS = 30 * 60_000;
/**
 * At most this many links per account within a link's lifetime: whoever knows a company and an address can ask, but
 * cannot fill the owner's inbox; the owner's links stay valid all the same, as a new request voids none.
 */
export const RESET_LINKS_PER_LIFETIME = 5;

/** What a token stands for now; only a `pending` one may set a password. */
export type ResetLink =
  | { state: "pending"; user: UserRecord }
  /** Spent, or its user's password was set since with another link. */
  | { state: "used" }
  | { state: "expired" }
  /** Never issued, mistyped, or its user deactivated since. */
  | { state: "unknown" };

const resetRow = z.object({ reset_expires_at: z.number(), reset_used_at: z.number().nullable() });
const countRow = z.object({ count: z.number() });

/**
 * A new link's token for the user, beside any earlier link of theirs (which keeps working); undefined when the account
 * had its share of links within the last lifetime (the throttle).
 */
export function issueResetLink(db: SandboxDb, userId: number, now: number): string | undefined {
  return inTransaction(db, () => {
    // Links expired for a day tell nothing more than "unknown" would; they go.
    db.prepare("DELETE FROM reset_links WHERE expires_at <= ?").run(now - 24 * 60 * 60_000);
    const recent = countRow.parse(
      db
        .prepare("SELECT count(*) AS count FROM reset_links WHERE user_id = ? AND issued_at > ?")
        .get(userId, now - RESET_LINK_LIFETIME_MS),
    );
    if (recent.count >= RESET_LINKS_PER_LIFETIME) return undefined;
    const token = randomToken();
    db.prepare("INSERT INTO reset_links (token_hash, user_id, issued_at, expires_at) VALUES (?, ?, ?, ?)").run(
      hashToken(token),
      userId,
      now,
      now + RESET_LINK_LIFETIME_MS,
    );
    return token;
  });
}

/** Reads what a token stands for without spending it: opening the link must not use it up. */
export function findResetLink(db: SandboxDb, token: string, now: number): ResetLink {
  const row = db
    .prepare(
      `SELECT users.*, reset_links.expires_at AS reset_expires_at, reset_links.used_at AS reset_used_at
       FROM reset_links JOIN users ON users.id = reset_links.user_id
       WHERE reset_links.token_hash = ?`,
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
 * Spends a pending link: the user's password becomes `passwordHash`, their other outstanding links are spent with it
 * (they were asked for to set the password that is now set), and their sessions end, in one transaction, so of two
 * uses at once only one sets a password. Answers what the link was; anything but `pending` changed nothing.
 */
export function spendResetLink(db: SandboxDb, token: string, passwordHash: string, now: number): ResetLink {
  return inTransaction(db, (): ResetLink => {
    const link = findResetLink(db, token, now);
    if (link.state !== "pending") return link;
    db.prepare("UPDATE reset_links SET used_at = ? WHERE user_id = ? AND used_at IS NULL").run(now, link.user.id);
    // A chosen password that meets the rules: the account is no longer expired.
    updatePassword(db, link.user.id, passwordHash, "Success");
    // Whoever knew the old password is signed out too: a reset is often how an owner takes an account back.
    revokeTokens(db, link.user.id);
    return link;
  });
}

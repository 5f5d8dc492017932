// Sandbox user records: lookups by the identities docs/requirements.md uses, password and permission updates.
import { z } from "zod";
import type { components } from "#openapi/schema.ts";
import type { SandboxDb } from "#sandbox/db.ts";
import { asPermissions, type Permissions } from "#sandbox/permissions-shape.ts";

export type Site = components["schemas"]["Site"];
export type LoginMessage = components["schemas"]["LoginMessage"];
export type UserInfo = components["schemas"]["UserInfo"];

export const siteSchema = z.enum(["client", "vendor"]) satisfies z.ZodType<Site>;
export const loginMessageSchema = z.enum([
  "Success",
  "Password Expired",
  "Deactivated",
]) satisfies z.ZodType<LoginMessage>;

export interface NewUser {
  site: Site;
  /** The company short name; "" for vendors. */
  shortname: string;
  username: string;
  email: string;
  passwordHash: string;
  loginMessage: LoginMessage;
  permissions: Permissions;
}

/** A stored user: what it was created with, plus what the store gives it. */
export interface UserRecord extends NewUser {
  id: number;
}

const userRow = z.object({
  id: z.number(),
  site: siteSchema,
  shortname: z.string(),
  username: z.string(),
  email: z.string(),
  password_hash: z.string(),
  login_message: loginMessageSchema,
  permissions: z.string(),
});

/** Turns a row from `SELECT * FROM users` (or `SELECT users.*`) into a typed record. */
export function toUser(row: unknown): UserRecord {
  const user = userRow.parse(row);
  return {
    id: user.id,
    site: user.site,
    shortname: user.shortname,
    username: user.username,
    email: user.email,
    passwordHash: user.password_hash,
    loginMessage: user.login_message,
    permissions: asPermissions(JSON.parse(user.permissions)),
  };
}

function optionalUser(row: unknown): UserRecord | undefined {
  return row === undefined ? undefined : toUser(row);
}

export interface UserIdentity {
  site: Site;
  /** Required to sign a client in; when absent elsewhere, the first client with that user ID. */
  shortname?: string | undefined;
  username: string;
}

export function findUser(db: SandboxDb, identity: UserIdentity): UserRecord | undefined {
  if (identity.site === "client" && identity.shortname === undefined) {
    const row = db
      .prepare("SELECT * FROM users WHERE site = 'client' AND username = ? ORDER BY id LIMIT 1")
      .get(identity.username);
    return optionalUser(row);
  }
  const shortname = identity.site === "vendor" ? "" : (identity.shortname ?? "");
  const row = db
    .prepare("SELECT * FROM users WHERE site = ? AND shortname = ? AND username = ?")
    .get(identity.site, shortname, identity.username);
  return optionalUser(row);
}

/** The users a password reset addresses: clients by company and e-mail, vendors by e-mail alone. */
export function findUsersByEmail(db: SandboxDb, site: Site, shortname: string, email: string): UserRecord[] {
  const rows =
    site === "vendor"
      ? db.prepare("SELECT * FROM users WHERE site = 'vendor' AND email = ? ORDER BY id").all(email)
      : db
          .prepare("SELECT * FROM users WHERE site = 'client' AND shortname = ? AND email = ? ORDER BY id")
          .all(shortname, email);
  return rows.map(toUser);
}

export function countUsers(db: SandboxDb): number {
  const row = z.object({ count: z.number() }).parse(db.prepare("SELECT count(*) AS count FROM users").get());
  return row.count;
}

export function insertUser(db: SandboxDb, user: NewUser): number {
  const result = db
    .prepare(
      `INSERT INTO users (site, shortname, username, email, password_hash, login_message, permissions)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      user.site,
      user.shortname,
      user.username,
      user.email,
      user.passwordHash,
      user.loginMessage,
      JSON.stringify(user.permissions),
    );
  return Number(result.lastInsertRowid);
}

export function updatePassword(db: SandboxDb, userId: number, passwordHash: string, loginMessage: LoginMessage): void {
  db.prepare("UPDATE users SET password_hash = ?, login_message = ? WHERE id = ?").run(
    passwordHash,
    loginMessage,
    userId,
  );
}

export function updatePermissions(db: SandboxDb, userId: number, permissions: Permissions): void {
  db.prepare("UPDATE users SET permissions = ? WHERE id = ?").run(JSON.stringify(permissions), userId);
}

export function userInfo(user: UserRecord): UserInfo {
  return { loaded: true, ...user.permissions };
}

// Opens the sandbox's SQLite database and creates its schema, so its state survives restarts.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { loadSqlite } from "#sandbox/sqlite.ts";

export type SandboxDb = DatabaseSync;

const SCHEMA_VERSION = 3;

// NOCASE on the identity columns makes every lookup by short name, user ID or e-mail
// case-insensitive, as the requirements' sign-in and reset expect, without lower() in each query.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS users (
  id INTEGER PRIMARY KEY,
  site TEXT NOT NULL CHECK (site IN ('client', 'vendor')),
  shortname TEXT NOT NULL COLLATE NOCASE, -- '' for vendors
  username TEXT NOT NULL COLLATE NOCASE,
  email TEXT NOT NULL COLLATE NOCASE,
  password_hash TEXT NOT NULL,
  login_message TEXT NOT NULL,
  permissions TEXT NOT NULL, -- JSON: UserInfo without "loaded"
  UNIQUE (site, shortname, username)
);
CREATE INDEX IF NOT EXISTS users_by_email ON users (site, email);
CREATE TABLE IF NOT EXISTS tokens (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  expires_at INTEGER NOT NULL,
  verified INTEGER NOT NULL DEFAULT 0,
  revoked INTEGER NOT NULL DEFAULT 0,
  failed_validations INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS tokens_by_user ON tokens (user_id);
-- The code mailed for a sign-in: one per token (its newest), spent when typed.
CREATE TABLE IF NOT EXISTS mfa_codes (
  token_hash TEXT PRIMARY KEY REFERENCES tokens (token_hash) ON DELETE CASCADE,
  code TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
-- Device memory (requirements 4.2): the code a user passed last on a device, by the SHA-256 of the device id the
-- portal sent; it passes again from that device only.
CREATE TABLE IF NOT EXISTS mfa_devices (
  user_id INTEGER NOT NULL REFERENCES users (id),
  device_hash TEXT NOT NULL,
  code TEXT NOT NULL,
  accepted_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, device_hash)
);
CREATE TABLE IF NOT EXISTS link_logins (
  uuid TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
-- Password-reset links: several may be outstanding for a user, each spent once; a newer request never voids an
-- older link. Only the SHA-256 of the mailed token is kept, so a copy of the database resets nobody's password.
-- used_at tells a spent link from an unknown one; issued_at counts a user's recent requests (the throttle).
CREATE TABLE IF NOT EXISTS reset_links (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  issued_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX IF NOT EXISTS reset_links_by_user ON reset_links (user_id, issued_at);
CREATE TABLE IF NOT EXISTS mails (
  id INTEGER PRIMARY KEY,
  recipient TEXT NOT NULL COLLATE NOCASE,
  subject TEXT NOT NULL,
  body TEXT NOT NULL,
  sent_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS visits (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  page TEXT NOT NULL,
  at INTEGER NOT NULL
);
`;

/** Opens (creating when absent) the database at `path`; ":memory:" gives a throw-away one. */
export function openDatabase(path: string): SandboxDb {
  // A fresh checkout has no data directory yet; the sandbox should just start.
  if (path !== ":memory:" && path !== "") mkdirSync(dirname(path), { recursive: true });
  const db = new (loadSqlite().DatabaseSync)(path);
  try {
    // WAL lets a developer read the file with the sqlite3 shell while the sandbox runs.
    db.exec("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;");
    const version = db.prepare("PRAGMA user_version").get()?.user_version;
    if (typeof version === "number" && version > SCHEMA_VERSION) {
      throw new Error(
        `The sandbox database ${path} has schema version ${version}; this sandbox knows ${SCHEMA_VERSION}.`,
      );
    }
    // Version 1 kept one reset link per user, in a table of its own: its pending links open nothing any more.
    if (version === 1) db.exec("DROP TABLE IF EXISTS password_resets");
    // Versions 1 and 2 kept one code and one remembered code per user, valid from any browser: both are dropped.
    if (version === 1 || version === 2) dropPerUserCodes(db);
    db.exec(SCHEMA);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

function dropPerUserCodes(db: SandboxDb): void {
  db.exec("DROP TABLE IF EXISTS mfa_codes");
  const columns = db.prepare("SELECT name FROM pragma_table_info('users')").all();
  if (columns.some((column) => column.name === "remembered_code"))
    db.exec("ALTER TABLE users DROP COLUMN remembered_code");
}

/**
 * Runs `work` in one transaction: committed when it returns, rolled back when it throws. IMMEDIATE takes the write
 * lock at once, so two processes on one file cannot both read and then both write.
 */
export function inTransaction<T>(db: SandboxDb, work: () => T, mode: "DEFERRED" | "IMMEDIATE" = "DEFERRED"): T {
  db.exec(`BEGIN ${mode}`);
  try {
    const result = work();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    // Some errors end the transaction in SQLite itself; `isTransaction` is unknown before Node 22.16.
    if (db.isTransaction !== false) db.exec("ROLLBACK");
    throw error;
  }
}

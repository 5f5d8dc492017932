// The sandbox's SQLite database (sandbox/db.ts): created where it is asked for, kept across restarts, and
// never opened by a sandbox older than its schema.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { after, before, describe, test } from "node:test";
import type { components } from "#openapi/schema.ts";
import { openDatabase } from "#sandbox/db.ts";
import type { StoredMail } from "#sandbox/mailbox.ts";
import type { VisitRecord } from "#sandbox/visits.ts";
import { startSandboxUnderTest, TestClock } from "#tests/support/sandbox-calls.ts";

let directory: string;
describe("sandbox/db", () => {
  before(() => {
    directory = mkdtempSync(join(tmpdir(), "sandbox-db-test-"));
  });
  after(() => rmSync(directory, { recursive: true, force: true }));

  describe("durability", () => {
    test("what the sandbox stored survives a restart on the same file, and the seed is not run again", async () => {
      const dbPath = join(directory, "not-yet-there", "sandbox.db");
      const clock = new TestClock();
      const first = await startSandboxUnderTest({ dbPath, clock });
      let token: string;
      try {
        await first.call("PUT", "/sandbox/users/client/ACME/alice/permissions", { body: { vipTier: "7" } });
        token = await first.verifiedByLink("client", "alice");
        await first.call("POST", "/web/track", { token, body: { page: "/client/inbox" } });
      } finally {
        await first.close();
      }

      const second = await startSandboxUnderTest({ dbPath, clock });
      try {
        const info = await second.call<components["schemas"]["UserInfo"]>("GET", "/web/client/user-info", { token });
        assert.equal(info.body.vipTier, "7", "the changed permission and the token survived, so no re-seed");
        const mails = await second.call<StoredMail[]>("GET", "/sandbox/mail.json?to=alice@acme.example");
        assert.equal(mails.body.length, 1);
        const visits = await second.call<VisitRecord[]>("GET", "/sandbox/visits.json");
        assert.deepEqual(
          visits.body.map((visit) => visit.page),
          ["/client/inbox"],
        );
      } finally {
        await second.close();
      }
    });
  });

  describe("the schema", () => {
    test("a new file gets the schema and its version, and opening it again keeps both", () => {
      const path = join(directory, "fresh", "deeper", "sandbox.db");
      const db = openDatabase(path);
      assert.equal(db.prepare("PRAGMA user_version").get()?.user_version, 3);
      assert.equal(db.prepare("PRAGMA journal_mode").get()?.journal_mode, "wal");
      db.prepare("INSERT INTO mails (recipient, subject, body, sent_at) VALUES ('a@b', 's', 'b', 0)").run();
      db.close();
      const again = openDatabase(path);
      assert.equal(again.prepare("SELECT count(*) AS n FROM mails").get()?.n, 1);
      again.close();
    });

    test("a file written by a newer sandbox is refused, naming both versions, and its tables left uncreated", () => {
      const path = join(directory, "newer.db");
      const newer = new DatabaseSync(path);
      newer.exec("PRAGMA user_version = 4");
      newer.close();
      assert.throws(() => openDatabase(path), /schema version 4; this sandbox knows 3/);
      const untouched = new DatabaseSync(path, { readOnly: true });
      assert.equal(untouched.prepare("PRAGMA user_version").get()?.user_version, 4);
      assert.equal(untouched.prepare("SELECT name FROM sqlite_master WHERE name = 'users'").get(), undefined);
      untouched.close();
    });

    test("a version 1 file loses its one-link-per-user resets table and gets the reset links of version 2 and on", () => {
      const path = join(directory, "version-1.db");
      const old = new DatabaseSync(path);
      old.exec("CREATE TABLE password_resets (user_id INTEGER PRIMARY KEY, token_hash TEXT); PRAGMA user_version = 1");
      old.close();
      const db = openDatabase(path);
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
      const names = tables.map((row) => String(row.name));
      assert.ok(names.includes("reset_links") && !names.includes("password_resets"), names.join(", "));
      assert.equal(db.prepare("PRAGMA user_version").get()?.user_version, 3);
      db.close();
    });

    test("a version 2 file loses its per-user codes: the code and remembered code valid from any browser", () => {
      const path = join(directory, "version-2.db");
      const old = new DatabaseSync(path);
      old.exec(`CREATE TABLE users (id INTEGER PRIMARY KEY, site TEXT NOT NULL, shortname TEXT NOT NULL,
        username TEXT NOT NULL, email TEXT NOT NULL, password_hash TEXT NOT NULL, login_message TEXT NOT NULL,
        permissions TEXT NOT NULL, remembered_code TEXT);
        CREATE TABLE mfa_codes (user_id INTEGER PRIMARY KEY, code TEXT NOT NULL, expires_at INTEGER NOT NULL);
        INSERT INTO users VALUES (1, 'client', 'ACME', 'alice', 'a@b', 'h', 'Success', '{}', '123456');
        INSERT INTO mfa_codes VALUES (1, '654321', 0);
        PRAGMA user_version = 2`);
      old.close();
      const db = openDatabase(path);
      const columns = db
        .prepare("SELECT name FROM pragma_table_info('users')")
        .all()
        .map((row) => String(row.name));
      assert.ok(!columns.includes("remembered_code"), columns.join(", "));
      const codeColumns = db.prepare("SELECT name FROM pragma_table_info('mfa_codes')").all();
      assert.ok(codeColumns.some((row) => row.name === "token_hash"));
      assert.equal(db.prepare("SELECT count(*) AS n FROM mfa_codes").get()?.n, 0);
      assert.equal(db.prepare("SELECT username FROM users").get()?.username, "alice");
      assert.equal(db.prepare("PRAGMA user_version").get()?.user_version, 3);
      db.close();
    });

    test("identities are compared without regard to case, and one company cannot hold a user ID twice", () => {
      const db = openDatabase(":memory:");
      const insert = db.prepare(
        `INSERT INTO users (site, shortname, username, email, password_hash, login_message, permissions)
         VALUES ('client', ?, ?, 'a@b', 'h', 'Success', '{}')`,
      );
      insert.run("ACME", "alice");
      assert.throws(() => insert.run("acme", "ALICE"), /UNIQUE/);
      insert.run("GLOBEX", "alice");
      db.close();
    });
  });
});

// The sandbox's seed accounts (sandbox/seed.ts): written once into an empty database, each signing in with
// the seed password.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { openDatabase } from "#sandbox/db.ts";
import { TEST_COST, verifyPassword } from "#sandbox/passwords.ts";
import { SEED_PASSWORD, seedAccounts, seedIfEmpty } from "#sandbox/seed.ts";
import { countUsers, findUser } from "#sandbox/users.ts";

describe("seeding", () => {
  test("an empty database gets every seed account, each with its own salt and the seed password at scrypt's full cost", async () => {
    const db = openDatabase(":memory:");
    try {
      assert.equal(await seedIfEmpty(db), true);
      assert.equal(countUsers(db), seedAccounts.length);
      const hashes = new Set<string>();
      for (const account of seedAccounts) {
        const user = findUser(db, account);
        assert.ok(user, account.username);
        assert.deepEqual(
          [user.email, user.loginMessage, user.permissions],
          [account.email, account.loginMessage, account.permissions],
        );
        assert.match(user.passwordHash, /^scrypt\$16384\$8\$1\$/, account.username);
        assert.equal(await verifyPassword(SEED_PASSWORD, user.passwordHash), true, account.username);
        hashes.add(user.passwordHash);
      }
      assert.equal(hashes.size, seedAccounts.length);
    } finally {
      db.close();
    }
  });

  test("a database that holds users is not seeded again", async () => {
    const db = openDatabase(":memory:");
    try {
      await seedIfEmpty(db, TEST_COST);
      db.prepare("DELETE FROM users WHERE username = 'victor'").run();
      assert.equal(await seedIfEmpty(db, TEST_COST), false);
      assert.equal(countUsers(db), seedAccounts.length - 1);
    } finally {
      db.close();
    }
  });

  test("the seed holds each situation once: every login message on both sites, and no identity twice", () => {
    for (const site of ["client", "vendor"] as const) {
      const messages = new Set(seedAccounts.filter((a) => a.site === site).map((a) => a.loginMessage));
      assert.deepEqual([...messages].sort(), ["Deactivated", "Password Expired", "Success"], site);
    }
    const identities = seedAccounts.map((a) => `${a.site}/${a.shortname ?? ""}/${a.username}`.toLowerCase());
    assert.equal(new Set(identities).size, identities.length);
  });
});

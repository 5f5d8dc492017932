// A seeded sandbox database in memory, for tests of the sandbox's stores without its HTTP app.
import { openDatabase, type SandboxDb } from "#sandbox/db.ts";
import { TEST_COST } from "#sandbox/passwords.ts";
import { seedIfEmpty } from "#sandbox/seed.ts";
import { findUser, type UserIdentity, type UserRecord } from "#sandbox/users.ts";

/** The seed accounts in a fresh in-memory database. */
export async function seededDatabase(): Promise<SandboxDb> {
  const db = openDatabase(":memory:");
  await seedIfEmpty(db, TEST_COST);
  return db;
}

/** A seed user who must exist. */
export function seedUser(db: SandboxDb, identity: UserIdentity): UserRecord {
  const user = findUser(db, identity);
  if (user === undefined) throw new Error(`no seed user ${JSON.stringify(identity)}`);
  return user;
}

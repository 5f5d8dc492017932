// The sandbox's seed accounts: one per situation a developer or a test needs to reach.
import { inTransaction, type SandboxDb } from "#sandbox/db.ts";
import { FULL_COST, hashPassword, type ScryptCost } from "#sandbox/passwords.ts";
import type { Permissions } from "#sandbox/permissions-shape.ts";
import { countUsers, insertUser, type LoginMessage, type Site } from "#sandbox/users.ts";

/** The password of every seed account. */
export const SEED_PASSWORD = "Portal-Demo-2026!";

export interface SeedAccount {
  site: Site;
  /** The company short name; clients only. */
  shortname?: string;
  username: string;
  email: string;
  loginMessage: LoginMessage;
  purpose: string;
  permissions: Permissions;
}

/** A user allowed nothing: every seed user's starting point, and the tests' too. */
export const noPermissions: Permissions = {
  viewOnly: false,
  isAdmin: false,
  clientServices: [],
  beneServices: [],
  paymentTier: false,
  spotTier: false,
  vipTier: "0",
  userTier: "0",
};

function clientPermissions(overrides: Partial<Permissions>): Permissions {
  return { ...noPermissions, ...overrides };
}

// Vendors share the client shape: the fields that do not apply to them stay empty or "0".
const vendorPermissions = clientPermissions;

const alicePermissions = clientPermissions({
  isAdmin: true,
  clientServices: ["60542", "87286", "88689"],
  paymentTier: true,
  spotTier: true,
  vipTier: "2",
});

export const seedAccounts: readonly SeedAccount[] = [
  {
    site: "client",
    shortname: "ACME",
    username: "alice",
    email: "alice@acme.example",
    loginMessage: "Success",
    purpose: "client admin with every permission (services 60542, 87286, 88689; payment, spot, VIP tier 2)",
    permissions: alicePermissions,
  },
  {
    site: "client",
    shortname: "ACME",
    username: "victor",
    email: "victor@acme.example",
    loginMessage: "Success",
    purpose: "view-only client with service 1894 (no pending invoices, no batches, no cart)",
    permissions: clientPermissions({ viewOnly: true, clientServices: ["1894"] }),
  },
  {
    site: "client",
    shortname: "GLOBEX",
    username: "gary",
    email: "gary@globex.example",
    loginMessage: "Success",
    purpose: "VIP client (tier 1) without service 88689, so no VIP invoice tracker",
    permissions: clientPermissions({ vipTier: "1" }),
  },
  {
    site: "client",
    shortname: "GLOBEX",
    username: "alice",
    email: "alice@globex.example",
    loginMessage: "Success",
    purpose: "another company's user with ACME alice's user ID: neither sees, ends or spends the other's sessions",
    permissions: clientPermissions({ clientServices: ["1894"] }),
  },
  {
    site: "client",
    shortname: "ACME",
    username: "paula",
    email: "paula@acme.example",
    loginMessage: "Password Expired",
    purpose: "client whose password has expired: must change it during sign-in",
    permissions: { ...alicePermissions, isAdmin: false },
  },
  {
    site: "client",
    shortname: "ACME",
    username: "dora",
    email: "dora@acme.example",
    loginMessage: "Deactivated",
    purpose: "deactivated client: sign-in shows the deactivation message",
    permissions: clientPermissions({}),
  },
  {
    site: "vendor",
    username: "vera",
    email: "vera@vendor.example",
    loginMessage: "Success",
    purpose: "vendor admin with user tier 1 and beneficiary service 60562",
    permissions: vendorPermissions({ isAdmin: true, userTier: "1", beneServices: ["60562"] }),
  },
  {
    site: "vendor",
    username: "vince",
    email: "vince@vendor.example",
    loginMessage: "Success",
    purpose: "vendor with user tier 0: no invoice pages, no admin",
    permissions: vendorPermissions({}),
  },
  {
    site: "vendor",
    username: "petra",
    email: "petra@vendor.example",
    loginMessage: "Password Expired",
    purpose: "vendor whose password has expired (user tier 1)",
    permissions: vendorPermissions({ userTier: "1" }),
  },
  {
    site: "vendor",
    username: "dmitri",
    email: "dmitri@vendor.example",
    loginMessage: "Deactivated",
    purpose: "deactivated vendor: sign-in shows the deactivation message",
    permissions: vendorPermissions({}),
  },
];

/**
 * Seeds the accounts once: only when the users table is empty, so later changes survive restarts. Their passwords are
 * hashed at scrypt's full cost unless a test's sandbox asks for its own.
 */
export async function seedIfEmpty(db: SandboxDb, cost: ScryptCost = FULL_COST): Promise<boolean> {
  if (countUsers(db) > 0) return false;
  // Each account gets its own salt; hashing them in parallel keeps a fresh start quick.
  const hashed = await Promise.all(
    seedAccounts.map(async (account) => ({ account, passwordHash: await hashPassword(SEED_PASSWORD, cost) })),
  );
  return inTransaction(
    db,
    (): boolean => {
      // Checked again: another process may have seeded the same file while we hashed.
      if (countUsers(db) > 0) return false;
      for (const { account, passwordHash } of hashed) {
        insertUser(db, {
          site: account.site,
          shortname: account.shortname ?? "",
          username: account.username,
          email: account.email,
          passwordHash,
          loginMessage: account.loginMessage,
          permissions: account.permissions,
        });
      }
      return true;
    },
    "IMMEDIATE",
  );
}

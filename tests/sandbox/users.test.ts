// The sandbox's user records (sandbox/users.ts): found by the identities the requirements use, and updated.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { SandboxDb } from "#sandbox/db.ts";
import { noPermissions } from "#sandbox/seed.ts";
import {
  countUsers,
  findUser,
  findUsersByEmail,
  insertUser,
  toUser,
  updatePassword,
  updatePermissions,
  userInfo,
} from "#sandbox/users.ts";
import { seededDatabase, seedUser } from "#tests/support/sandbox-db.ts";

let db: SandboxDb;
describe("sandbox/users", () => {
  before(async () => {
    db = await seededDatabase();
  });
  after(() => db.close());

  describe("finding a user", () => {
    test("a client is found by company and user ID, a vendor by user ID alone, both without regard to case", () => {
      assert.equal(findUser(db, { site: "client", shortname: "acme", username: "ALICE" })?.username, "alice");
      assert.equal(findUser(db, { site: "vendor", username: "VeRa" })?.email, "vera@vendor.example");
      assert.equal(findUser(db, { site: "vendor", shortname: "ACME", username: "vera" })?.username, "vera");
      assert.equal(findUser(db, { site: "client", shortname: "INITECH", username: "alice" }), undefined);
      assert.equal(
        findUser(db, { site: "client", shortname: "GLOBEX", username: "alice" })?.email,
        "alice@globex.example",
      );
      assert.equal(findUser(db, { site: "vendor", username: "alice" }), undefined, "a client is no vendor");
      assert.equal(findUser(db, { site: "client", shortname: "", username: "alice" }), undefined);
    });

    test("a client named without a company is the first client with that user ID", () => {
      const second = insertUser(db, {
        site: "client",
        shortname: "INITECH",
        username: "gary",
        email: "gary@initech.example",
        passwordHash: "h",
        loginMessage: "Success",
        permissions: noPermissions,
      });
      assert.equal(findUser(db, { site: "client", username: "gary" })?.shortname, "GLOBEX");
      assert.equal(findUser(db, { site: "client", shortname: "initech", username: "gary" })?.id, second);
    });

    test("a reset finds clients by company and e-mail, vendors by e-mail alone, in any case", () => {
      assert.deepEqual(
        findUsersByEmail(db, "client", "Acme", "ALICE@acme.example").map((user) => user.username),
        ["alice"],
      );
      assert.deepEqual(findUsersByEmail(db, "client", "GLOBEX", "alice@acme.example"), []);
      assert.deepEqual(
        findUsersByEmail(db, "vendor", "", "Vince@Vendor.example").map((user) => user.username),
        ["vince"],
      );
      assert.deepEqual(findUsersByEmail(db, "vendor", "", "alice@acme.example"), []);
    });
  });

  describe("a user's record", () => {
    test("a stored row reads as a typed record; permissions that do not fit UserInfo stop the read", () => {
      const row = db.prepare("SELECT * FROM users WHERE username = 'victor'").get();
      const victor = toUser(row);
      assert.equal(victor.site, "client");
      assert.deepEqual(victor.permissions.clientServices, ["1894"]);
      assert.throws(() => toUser({ ...(row as object), permissions: '{"vipTier":"1"}' }), /do not fit UserInfo/);
      assert.throws(() => toUser({ ...(row as object), site: "admin" }));
    });

    test("a password and a login message are updated together, and permissions replaced whole", () => {
      const before = countUsers(db);
      const paula = seedUser(db, { site: "client", shortname: "ACME", username: "paula" });
      updatePassword(db, paula.id, "fresh-hash", "Success");
      const permissions = { ...noPermissions, vipTier: "4", beneServices: ["60562"] };
      updatePermissions(db, paula.id, permissions);
      const after = seedUser(db, { site: "client", shortname: "ACME", username: "paula" });
      assert.deepEqual(
        [after.passwordHash, after.loginMessage, after.permissions],
        ["fresh-hash", "Success", permissions],
      );
      assert.deepEqual(userInfo(after), { loaded: true, ...permissions });
      assert.equal(countUsers(db), before);
    });
  });
});

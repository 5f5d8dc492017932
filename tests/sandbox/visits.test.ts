// The page visits the sandbox stores (sandbox/visits.ts), as the portal's tracking (requirements 4.8) sends them.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { openDatabase } from "#sandbox/db.ts";
import { noPermissions } from "#sandbox/seed.ts";
import { insertUser } from "#sandbox/users.ts";
import { listVisits, recordVisit, type VisitRecord } from "#sandbox/visits.ts";
import { type SandboxUnderTest, startSandboxUnderTest } from "#tests/support/sandbox-calls.ts";

let sandbox: SandboxUnderTest;
describe("sandbox/visits", () => {
  before(async () => {
    sandbox = await startSandboxUnderTest();
  });
  after(() => sandbox.close());

  describe("page visits", () => {
    test("a page visit is stored with user, site, page and time, and listed oldest first", async () => {
      const token = await sandbox.verifiedByLink("client", "gary");
      const at = new Date(sandbox.clock.now).toISOString();
      for (const page of ["/client/home", "/client/vip/dashboard"]) {
        const answer = await sandbox.call("POST", "/web/track", { token, body: { page } });
        assert.deepEqual([answer.status, answer.body], [200, { ok: true }]);
      }
      const visits = (await sandbox.call<VisitRecord[]>("GET", "/sandbox/visits.json")).body;
      assert.deepEqual(visits.slice(-2), [
        { username: "gary", site: "client", page: "/client/home", at },
        { username: "gary", site: "client", page: "/client/vip/dashboard", at },
      ]);
      assert.equal((await sandbox.call("POST", "/web/track", { token, body: { page: "" } })).status, 400);
    });

    test("visits are listed by their time, whatever order they were recorded in, then in the order sent", () => {
      const db = openDatabase(":memory:");
      const userId = insertUser(db, {
        site: "vendor",
        shortname: "",
        username: "vera",
        email: "vera@vendor.example",
        passwordHash: "not used here",
        loginMessage: "Success",
        permissions: noPermissions,
      });
      recordVisit(db, userId, "/vendor/late", 3_000);
      recordVisit(db, userId, "/vendor/early", 1_000);
      recordVisit(db, userId, "/vendor/same-a", 2_000);
      recordVisit(db, userId, "/vendor/same-b", 2_000);
      assert.deepEqual(
        listVisits(db).map((visit) => [visit.page, visit.at]),
        [
          ["/vendor/early", "1970-01-01T00:00:01.000Z"],
          ["/vendor/same-a", "1970-01-01T00:00:02.000Z"],
          ["/vendor/same-b", "1970-01-01T00:00:02.000Z"],
          ["/vendor/late", "1970-01-01T00:00:03.000Z"],
        ],
      );
      assert.throws(() => recordVisit(db, userId + 1, "/nobody", 0), /FOREIGN KEY/, "a visit is always someone's");
      db.close();
    });
  });
});

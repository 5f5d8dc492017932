// The sandbox's check of the permissions it stores and is given (sandbox/permissions-shape.ts): the spec's
// UserInfo, with no field beyond it and numeric tiers.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { asPermissions, permissionsPatchProblem, storedPermissionsProblem } from "#sandbox/permissions-shape.ts";
import { noPermissions, seedAccounts } from "#sandbox/seed.ts";

describe("whole permissions", () => {
  test("every seed account's permissions fit", () => {
    for (const account of seedAccounts) {
      assert.equal(storedPermissionsProblem(account.permissions), undefined, account.username);
    }
  });

  test("a missing field, a field beyond UserInfo, loaded, or a tier that is not a numeric string is refused by name", () => {
    const { vipTier: _vipTier, ...withoutTier } = noPermissions;
    assert.deepEqual(storedPermissionsProblem(withoutTier), { field: "/vipTier", rule: "required" });
    assert.equal(storedPermissionsProblem({ ...noPermissions, power: 1 })?.rule, "additionalProperties");
    assert.equal(storedPermissionsProblem({ loaded: true, ...noPermissions })?.rule, "additionalProperties");
    assert.deepEqual(storedPermissionsProblem({ ...noPermissions, vipTier: "high" }), {
      field: "/vipTier",
      rule: "pattern",
    });
    assert.deepEqual(storedPermissionsProblem({ ...noPermissions, userTier: 1 }), { field: "/userTier", rule: "type" });
    assert.deepEqual(storedPermissionsProblem({ ...noPermissions, userTier: "" }), {
      field: "/userTier",
      rule: "pattern",
    });
  });

  test("stored permissions that do not fit stop the read, naming the field; fitting ones come back as they are", () => {
    assert.equal(asPermissions(noPermissions), noPermissions);
    assert.throws(() => asPermissions({ ...noPermissions, vipTier: "x" }), /\/vipTier pattern/);
    assert.throws(() => asPermissions("not an object"), /\(whole\) type/);
  });
});

describe("a change of permissions", () => {
  test("any part of UserInfo is taken, loaded too; a field beyond it or a wrong value is refused", () => {
    for (const patch of [{}, { loaded: true }, { vipTier: "3" }, { beneServices: ["60562"], isAdmin: true }]) {
      assert.equal(permissionsPatchProblem(patch), undefined, JSON.stringify(patch));
    }
    assert.equal(permissionsPatchProblem({ power: 1 })?.rule, "additionalProperties");
    assert.deepEqual(permissionsPatchProblem({ vipTier: "3a" }), { field: "/vipTier", rule: "pattern" });
    assert.deepEqual(permissionsPatchProblem({ clientServices: [7] }), { field: "/clientServices/0", rule: "type" });
    assert.equal(permissionsPatchProblem([])?.rule, "type");
  });
});

// Whether a user may open a row of the route table (requirements 4.7 and 6): its gate decides, and never a forbidden page.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { noPermissions, permissionsWith } from "#tests/support/permissions.ts";
import { opens, opensPath } from "#web/routes/opens.ts";
import type { RouteEntry } from "#web/routes/row.ts";

const page = (changes: Partial<RouteEntry>): RouteEntry => ({
  path: "/client/page",
  section: "client",
  screen: "about",
  title: "Page",
  ...changes,
});

describe("opening a row", () => {
  it("opens a row with no gate to anyone, even with no permission at all", () => {
    assert.equal(opens(page({}), noPermissions), true);
  });

  it("opens a gated row exactly when its gate passes", () => {
    const admin = page({ gate: "isAdmin" });
    assert.equal(opens(admin, permissionsWith({ isAdmin: true })), true);
    assert.equal(opens(admin, permissionsWith({ isAdmin: false })), false);
    const vip = page({ gate: "vipTier" });
    assert.equal(opens(vip, permissionsWith({ vipTier: "1" })), true);
    assert.equal(opens(vip, permissionsWith({ vipTier: "0" })), false);
  });

  it("never opens the forbidden screen's own row: it is a refusal, not a page to be led to", () => {
    assert.equal(opens(page({ screen: "forbidden" }), noPermissions), false);
    assert.equal(opens(page({ screen: "forbidden" }), permissionsWith({ isAdmin: true, vipTier: "9" })), false);
  });
});

describe("opening a page by its path", () => {
  it("opens the table's row of that path exactly when its gate passes", () => {
    assert.equal(opensPath("/client/batch/upload", permissionsWith({ viewOnly: false })), true);
    assert.equal(opensPath("/client/batch/upload", permissionsWith({ viewOnly: true })), false);
    assert.equal(opensPath("/client/reports/aging", permissionsWith({ viewOnly: true })), true);
  });

  it("opens no path the table does not have, nor the forbidden page's", () => {
    assert.equal(opensPath("/client/nowhere", permissionsWith({ isAdmin: true })), false);
    assert.equal(opensPath("/client/forbidden", permissionsWith({ isAdmin: true })), false);
  });
});

// The navigation of a section: what the permissions allow, grouped in the route table's order.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { permissionsWith } from "#tests/support/permissions.ts";
import { navigationFor } from "#web/components/section-nav.tsx";
import { gates } from "#web/gates.ts";
import { routes } from "#web/routes/table.ts";

describe("the navigation", () => {
  it("lists only what the permissions allow, grouped in the table's order", () => {
    const viewer = permissionsWith({ viewOnly: true, clientServices: ["1894"] });
    const nav = navigationFor("client", viewer);
    const listed = nav.flatMap(([, entries]) => entries);
    assert.ok(listed.length > 0);
    for (const entry of listed) assert.ok(!entry.gate || gates[entry.gate](viewer), entry.path);
    assert.ok(!listed.some((entry) => entry.gate === "notViewOnly" || entry.gate === "lacksService1894"));
    assert.equal(nav[0]?.[0], "Home");
    assert.ok(!nav.some(([group]) => group === "VIP"), "no VIP group without vipTier");
  });

  it("lists every page of a section with a group, once, for a user who may open them all", () => {
    const all = permissionsWith({
      isAdmin: true,
      clientServices: ["60542", "87286", "88689"],
      paymentTier: true,
      spotTier: true,
      vipTier: "2",
    });
    const listed = navigationFor("client", all).flatMap(([, entries]) => entries.map((entry) => entry.path));
    const grouped = routes.filter((entry) => entry.section === "client" && entry.group).map((entry) => entry.path);
    assert.deepEqual(listed.sort(), grouped.sort());
  });
});

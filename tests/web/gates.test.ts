// The gate predicates of requirements 6.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { permissionsWith } from "#tests/support/permissions.ts";
import { type GateName, gateDescriptions, gates } from "#web/gates.ts";
import type { UserInfo } from "#web/site.ts";

describe("the gates of requirements 6", () => {
  const cases: [GateName, Partial<UserInfo>, boolean][] = [
    ["notViewOnly", { viewOnly: false }, true],
    ["notViewOnly", { viewOnly: true }, false],
    ["hasService60542", { clientServices: ["60542"] }, true],
    ["hasService60542", { clientServices: ["160542", "605420"] }, false],
    ["lacksService1894", { clientServices: ["60542"] }, true],
    ["lacksService1894", { clientServices: ["1894"] }, false],
    ["paymentTierNotViewOnly", { paymentTier: true }, true],
    ["paymentTierNotViewOnly", { paymentTier: "gold" }, true],
    ["paymentTierNotViewOnly", { paymentTier: 1 }, true],
    ["paymentTierNotViewOnly", { paymentTier: true, viewOnly: true }, false],
    ["paymentTierNotViewOnly", { paymentTier: 0 }, false],
    ["paymentTierNotViewOnly", { paymentTier: "" }, false],
    ["paymentTierNotViewOnly", { paymentTier: null }, false],
    ["hasService87286", { clientServices: ["87286"] }, true],
    ["hasService87286", { clientServices: [] }, false],
    ["isAdmin", { isAdmin: true }, true],
    ["isAdmin", { isAdmin: false }, false],
    ["vipTier", { vipTier: "1" }, true],
    ["vipTier", { vipTier: "12" }, true],
    ["vipTier", { vipTier: "0" }, false],
    ["vipTier", { vipTier: "" }, false],
    ["vipTierAndService88689", { vipTier: "2", clientServices: ["88689"] }, true],
    ["vipTierAndService88689", { vipTier: "2", clientServices: [] }, false],
    ["vipTierAndService88689", { vipTier: "0", clientServices: ["88689"] }, false],
    ["spotTier", { spotTier: true }, true],
    ["spotTier", { spotTier: "yes" }, true],
    ["spotTier", { spotTier: false }, false],
    ["spotTier", { spotTier: null }, false],
    ["userTier", { userTier: "1" }, true],
    ["userTier", { userTier: "0" }, false],
    ["hasBeneService60562", { beneServices: ["60562"] }, true],
    ["hasBeneService60562", { beneServices: ["60542"] }, false],
  ];
  for (const [gate, changes, expected] of cases) {
    it(`${gateDescriptions[gate]} is ${expected ? "met" : "not met"} by ${JSON.stringify(changes)}`, () => {
      assert.equal(gates[gate](permissionsWith(changes)), expected);
    });
  }
});

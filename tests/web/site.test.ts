// The values docs/requirements.md gives the two sites: their landings, the device key, the link-login type.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { deviceKey, knownLoginMessage, landingPath, linkSite, siteValue } from "#web/site.ts";

describe("the sites", () => {
  it("land on /{site}/home, or the tax-bridge landings in tax-bridge mode", () => {
    assert.equal(landingPath("client", false), "/client/home");
    assert.equal(landingPath("vendor", false), "/vendor/home");
    assert.equal(landingPath("client", true), "/client/submission/report");
    assert.equal(landingPath("vendor", true), "/vendor/invoice/due");
  });

  it("keep the device key as mfa-{site}-{username}, lowercased", () => {
    assert.equal(deviceKey("client", "Alice.Smith"), "mfa-client-alice.smith");
  });

  it("read link-login type Vendor as vendor and any other value as client", () => {
    assert.equal(linkSite("Vendor"), "vendor");
    assert.equal(linkSite("vendor"), "client");
    assert.equal(linkSite(null), "client");
    assert.equal(siteValue("client"), "CLIENT");
    assert.equal(siteValue("vendor"), "VENDOR");
  });

  it("know requirements 9's login messages as spelled, and no other", () => {
    for (const message of ["Success", "Password Expired", "Deactivated"])
      assert.equal(knownLoginMessage(message), message);
    for (const message of ["success", "Invalid", "", undefined, ["Success"], 1])
      assert.equal(knownLoginMessage(message), undefined);
  });
});

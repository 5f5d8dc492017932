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

  it("keep a vendor's device key as mfa-vendor-{username}, ASCII case and outer blanks folded as the upstream compares", () => {
    assert.equal(deviceKey("vendor", "", "Vera.Smith"), "mfa-vendor-vera.smith");
    assert.equal(deviceKey("vendor", "", " VERA\t"), deviceKey("vendor", "", "vera"));
    assert.notEqual(deviceKey("vendor", "", "\u212Aelvin"), deviceKey("vendor", "", "kelvin"), "no Unicode folding");
    assert.equal(deviceKey("vendor", "ACME", "vera"), deviceKey("vendor", "", "vera"), "a vendor has no company");
  });

  it("name a client's company in the device key, so ACME's alice and GLOBEX's alice never share a code", () => {
    assert.equal(deviceKey("client", "ACME", "alice"), "mfa-client/acme/alice");
    assert.notEqual(deviceKey("client", "ACME", "alice"), deviceKey("client", "GLOBEX", "alice"));
    assert.equal(
      deviceKey("client", " acme ", "ALICE"),
      deviceKey("client", "ACME", "alice"),
      "folded as the upstream",
    );
    assert.notEqual(deviceKey("client", "a/b", "c"), deviceKey("client", "a", "b/c"), "each part escaped");
    assert.notEqual(deviceKey("client", "", "vera"), deviceKey("vendor", "", "vera"));
  });

  it("never spell a client's old key mfa-client-{username}, whatever the user ID, so a code kept before is not sent", () => {
    for (const userName of ["alice", "acme/alice", "acme-alice", "-", "/acme/alice"])
      for (const company of ["ACME", "", "acme-"])
        assert.ok(!deviceKey("client", company, userName).startsWith("mfa-client-"), `${company} ${userName}`);
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

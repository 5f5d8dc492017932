// The values docs/requirements.md gives the two sites: their landings, the device key, the link-login type.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { MFA_CODE_MAX_LENGTH } from "#web/mfa-code.ts";
import { PASSWORD_MIN_LENGTH } from "#web/password-rules.ts";
import { SEND_AGAIN_COOLDOWN_MS } from "#web/protocol/headers.ts";
import {
  deviceKey,
  deviceOwnerKey,
  knownLoginMessage,
  landingPath,
  linkSite,
  loginMessages,
  siteValue,
} from "#web/site.ts";

describe("the sites", () => {
  it("land on /{site}/home, or the tax-bridge landings in tax-bridge mode", () => {
    assert.equal(landingPath("client", false), "/client/home");
    assert.equal(landingPath("vendor", false), "/vendor/home");
    assert.equal(landingPath("client", true), "/client/submission/report");
    assert.equal(landingPath("vendor", true), "/vendor/invoice/due");
  });

  it("keep the device key as requirements 3.5 spells it, mfa-{site}-{username}, lowercased", () => {
    assert.equal(deviceKey("client", "ALICE"), "mfa-client-alice");
    assert.equal(deviceKey("vendor", "Vera.Smith"), "mfa-vendor-vera.smith");
    assert.equal(deviceKey("vendor", " VERA\t"), deviceKey("vendor", "vera"), "outer blanks dropped, as the upstream");
    assert.notEqual(deviceKey("vendor", "\u212Aelvin"), deviceKey("vendor", "kelvin"), "no Unicode folding");
    assert.notEqual(deviceKey("client", "vera"), deviceKey("vendor", "vera"));
  });

  it("keep whose a client's code is under a key no device key can spell", () => {
    assert.equal(deviceOwnerKey("client", "Alice"), "mfaCompany-client-alice");
    for (const userName of ["alice", "company-client-alice", "-"])
      assert.ok(!deviceOwnerKey("client", userName).startsWith("mfa-"), userName);
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

describe("docs/requirements.md section 9's constants", () => {
  const text = readFileSync(new URL("../../docs/requirements.md", import.meta.url), "utf8");
  const section = text.slice(text.indexOf("## 9. Constants"), text.indexOf("## 10."));
  const constant = (name: string): string => {
    const row = section.split("\n").find((line) => line.startsWith(`| ${name} |`));
    assert.ok(row, `a row for ${name}`);
    return row.split("|")[2]?.trim() ?? "";
  };

  it("say exactly what the requirements say of the device key, and the code spells it so", () => {
    assert.equal(constant("Device key format"), "`mfa-{site}-{username}`, lowercased");
    const template = constant("Device key format").split("`")[1] ?? "";
    for (const site of ["client", "vendor"] as const)
      assert.equal(deviceKey(site, "Bob.Smith"), template.replace("{site}", site).replace("{username}", "bob.smith"));
  });

  it("are the code's: the password length, the code's length, the cooldown, the sites, the link type, the messages", () => {
    assert.equal(constant("Minimum password length"), String(PASSWORD_MIN_LENGTH));
    assert.equal(constant("Multi-factor code length"), `at most ${MFA_CODE_MAX_LENGTH}`);
    assert.equal(constant('"Send Again" cooldown'), `${SEND_AGAIN_COOLDOWN_MS} ms`);
    assert.match(constant("Site values"), new RegExp(`^\`${siteValue("client")}\`, \`${siteValue("vendor")}\``));
    assert.equal(constant("Link-login vendor type"), "`Vendor`");
    assert.equal(linkSite("Vendor"), "vendor");
    assert.equal(constant("Login messages"), loginMessages.map((message) => `\`${message}\``).join(", "));
  });
});

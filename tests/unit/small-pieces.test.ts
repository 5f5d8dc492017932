// Island props serialization, same-origin redirect targets, upstream paths, the values SPEC.md gives the two sites, counted words.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { FastifyRequest } from "fastify";
import { safePath } from "#server/safe-path.ts";
import { isNavigation } from "#server/tracking.ts";
import { serializeProps } from "#web/islands/serialize.ts";
import { deviceKey, landingPath, linkSite, siteValue } from "#web/site.ts";
import { loginTexts } from "#web/texts/login.ts";
import { mfaTexts } from "#web/texts/mfa.ts";

describe("island props", () => {
  it("cannot close their script element or open a comment", () => {
    const text = serializeProps({ error: "</script><script>alert(1)</script><!--", line: "a\u2028b" });
    assert.doesNotMatch(text, /[<>]/);
    assert.doesNotMatch(text, /\u2028/);
    assert.deepEqual(JSON.parse(text), { error: "</script><script>alert(1)</script><!--", line: "a\u2028b" });
  });
});

describe("a redirect target", () => {
  it("is followed when it is a path on this origin", () => {
    assert.equal(safePath("/client/home"), "/client/home");
    assert.equal(safePath("/vendor/reports/invoices?page=2"), "/vendor/reports/invoices?page=2");
  });

  it("is refused when it leaves the origin", () => {
    for (const target of [
      "//evil.example",
      "https://evil.example/",
      "/\\evil.example",
      "\\\\evil",
      "javascript:alert(1)",
      "/\tevil",
      "evil",
    ]) {
      assert.equal(safePath(target), undefined, target);
    }
  });
});

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
});

describe("isNavigation (what page tracking counts as a visit)", () => {
  const request = (method: string, headers: Record<string, string>) =>
    ({ method, headers }) as unknown as FastifyRequest;
  it("counts a GET for a document, or from a browser that does not say what it fetches", () => {
    assert.equal(isNavigation(request("GET", { "sec-fetch-dest": "document" })), true);
    assert.equal(isNavigation(request("GET", {})), true);
  });
  it("does not count a HEAD, an icon or image request that lands on a page, or a prefetch", () => {
    assert.equal(isNavigation(request("HEAD", {})), false);
    assert.equal(isNavigation(request("GET", { "sec-fetch-dest": "image" })), false);
    assert.equal(isNavigation(request("GET", { "sec-purpose": "prefetch" })), false);
  });
});

describe("counted words (issue 14, #11)", () => {
  it("follow the plural rules", () => {
    assert.equal(loginTexts.endedIdle(1), "It ended after 1 minute without activity.");
    assert.equal(loginTexts.endedIdle(30), "It ended after 30 minutes without activity.");
    assert.equal(mfaTexts.attemptsLeft(1), "1 attempt left.");
    assert.equal(mfaTexts.attemptsLeft(0), "0 attempts left.");
  });
});

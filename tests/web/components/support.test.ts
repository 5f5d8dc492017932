// The support contacts' phone links (requirements 1's support text): a number dials as its digits.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { telHref } from "#web/components/support.tsx";

describe("a support phone's link", () => {
  it("keeps the digits and a leading +", () => {
    assert.equal(telHref("+1 (800) 555-0100"), "tel:+18005550100");
    assert.equal(telHref("  +44 20 7946 0000 "), "tel:+442079460000");
  });

  it("dials a number written without + as its digits only", () => {
    assert.equal(telHref("(800) 555-0100"), "tel:8005550100");
    assert.equal(telHref("0800 + 555"), "tel:0800555");
  });
});

// The Password Reset panel's instruction (requirements 2.3): "company short name and" only on the CLIENT site.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resetTexts } from "#web/texts/reset.ts";

describe("the Password Reset instruction", () => {
  it("asks a client for the company short name and email address", () => {
    assert.equal(
      resetTexts.instruction(true),
      "Enter the company short name and email address associated with your account.",
    );
  });

  it("asks a vendor for the email address alone", () => {
    assert.equal(resetTexts.instruction(false), "Enter the email address associated with your account.");
  });
});

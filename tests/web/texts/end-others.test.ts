// What a password change that ends the other sessions says about them (requirements 11.3).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { endOthersTexts } from "#web/texts/end-others.ts";

describe("the sessions a password change ended", () => {
  it("are none: no other session was signed in", () => {
    assert.equal(endOthersTexts.ended(0), "No other session was signed in.");
  });

  it("are counted by the plural rules", () => {
    assert.equal(endOthersTexts.ended(1), "1 other session was signed out.");
    assert.equal(endOthersTexts.ended(3), "3 other sessions were signed out.");
  });
});

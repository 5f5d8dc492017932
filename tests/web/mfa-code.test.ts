// A multi-factor code as it is sent: digits only, without what separates groups.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { mfaCodeOf } from "#web/mfa-code.ts";

describe("the code as sent", () => {
  it("sends a code's digits without what separates them, and never a code with other signs", () => {
    assert.deepEqual(mfaCodeOf("850 894"), { code: "850894" });
    assert.deepEqual(mfaCodeOf("850-894"), { code: "850894" });
    assert.deepEqual(mfaCodeOf("  "), { problem: "Code is required." });
    assert.ok("problem" in mfaCodeOf("85O894"));
  });
});

// A multi-factor code as it is sent: digits only, without what separates groups.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MFA_CODE_MAX_LENGTH, mfaCodeOf } from "#web/mfa-code.ts";

describe("the code as sent", () => {
  it("sends a code's digits without what separates them, and never a code with other signs", () => {
    assert.deepEqual(mfaCodeOf("850 894"), { code: "850894" });
    assert.deepEqual(mfaCodeOf("850-894"), { code: "850894" });
    assert.deepEqual(mfaCodeOf("  "), { problem: "Code is required." });
    assert.ok("problem" in mfaCodeOf("85O894"));
  });

  it("never sends a code longer than requirements 5's 8 digits: it could only fail", () => {
    assert.equal(MFA_CODE_MAX_LENGTH, 8);
    assert.deepEqual(mfaCodeOf("1234 5678"), { code: "12345678" });
    assert.deepEqual(mfaCodeOf("123456789"), {
      problem: "The code has at most 8 digits. Please enter the digits from the email.",
    });
  });
});

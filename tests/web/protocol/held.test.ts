// The token-free answers the portal gives in place of the upstream's (requirements 10.1: the token stays in the session).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { asHeld, readVerdict } from "#web/protocol/held.ts";
import { mfaTexts } from "#web/texts/mfa.ts";

describe("a held answer", () => {
  it("is the portal's answer when it says whether a token is held", () => {
    const answer = { message: "Success", tokenHeld: true };
    assert.equal(asHeld(answer), answer);
    assert.deepEqual(asHeld({ tokenHeld: false }), { tokenHeld: false });
  });

  it("is refused when missing, or when tokenHeld is absent or not a boolean", () => {
    assert.equal(asHeld(undefined), undefined);
    assert.equal(asHeld({ token: "t", message: "Success" }), undefined);
    assert.equal(asHeld({ tokenHeld: "true" }), undefined);
    assert.equal(asHeld({ tokenHeld: 1 }), undefined);
    assert.equal(asHeld({ tokenHeld: null }), undefined);
  });
});

describe("an MFA verdict", () => {
  it("passes only on the text Passed", () => {
    assert.deepEqual(readVerdict([{ text: "Passed" }]), { passed: true });
    assert.deepEqual(readVerdict([{ text: "passed" }]), { passed: false });
    assert.deepEqual(readVerdict([]), { passed: false });
    assert.deepEqual(readVerdict({ text: "Passed" }), { passed: false });
    assert.deepEqual(readVerdict(undefined), { passed: false });
  });

  it("tells the tries left only when the portal gives a whole number of them", () => {
    assert.deepEqual(readVerdict([{ text: "Failed", attemptsLeft: 2 }]), { passed: false, attemptsLeft: 2 });
    assert.deepEqual(readVerdict([{ text: "Failed", attemptsLeft: 0 }]), { passed: false, attemptsLeft: 0 });
    for (const odd of [-1, 1.5, "2", null])
      assert.deepEqual(readVerdict([{ text: "Failed", attemptsLeft: odd }]), { passed: false });
  });

  it("words a refused code with the tries left when they are known", () => {
    assert.equal(mfaTexts.wrongCode(undefined), mfaTexts.incorrect);
    assert.equal(mfaTexts.wrongCode(1), `${mfaTexts.incorrect} 1 attempt left.`);
  });
});

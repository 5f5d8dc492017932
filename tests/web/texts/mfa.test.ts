// The multi-factor step's words with a number in them (requirements 4.2).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { mfaTexts } from "#web/texts/mfa.ts";

describe("the multi-factor step", () => {
  it("shows the seconds left on Send Again while it is disabled", () => {
    assert.equal(mfaTexts.sendAgainIn(20), "Send Again (20s)");
    assert.equal(mfaTexts.sendAgainIn(1), "Send Again (1s)");
  });

  it("says, to a Send Again posted without script inside the cooldown, that no code went and how long to wait", () => {
    assert.equal(mfaTexts.sendAgainWait(1), "A code was sent moments ago. You can send another in 1 second.");
    assert.equal(mfaTexts.sendAgainWait(16), "A code was sent moments ago. You can send another in 16 seconds.");
  });

  it("counts the attempts left after a wrong code", () => {
    assert.equal(mfaTexts.attemptsLeft(2), "2 attempts left.");
    assert.equal(mfaTexts.attemptsLeft(1), "1 attempt left.");
  });
});

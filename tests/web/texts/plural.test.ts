// Counted words in the texts, by the plural rules.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loginTexts } from "#web/texts/login-screen.ts";
import { mfaTexts } from "#web/texts/mfa.ts";

describe("counted words", () => {
  it("follow the plural rules", () => {
    assert.equal(loginTexts.endedIdle(1), "It ended after 1 minute without activity.");
    assert.equal(loginTexts.endedIdle(30), "It ended after 30 minutes without activity.");
    assert.equal(mfaTexts.attemptsLeft(1), "1 attempt left.");
    assert.equal(mfaTexts.attemptsLeft(0), "0 attempts left.");
  });
});

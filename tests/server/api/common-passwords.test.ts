// The passwords attackers try first are refused, however they meet the composition rules; the person's own name and
// company count as known words.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { easilyGuessed } from "#server/api/common-passwords.ts";

describe("an easily guessed password", () => {
  it("is one of the common or breached passwords, dressed up to pass the rules", () => {
    for (const password of ["Password123!", "Qwerty123456!", "P@ssw0rd1234", "Passw0rd!234"])
      assert.equal(easilyGuessed(password, []), true, password);
  });

  it("is built from the person's own user ID or company, which alone would not make it guessable", () => {
    assert.equal(easilyGuessed("Alice.Smith2026!", []), false);
    assert.equal(easilyGuessed("Alice.Smith2026!", ["alice.smith", "ACME"]), true);
    assert.equal(easilyGuessed("Vandelay2026!", []), false);
    assert.equal(easilyGuessed("Vandelay2026!", ["bob", "vandelay"]), true);
  });

  it("is not a long, unpredictable one", () => {
    for (const password of ["Portal-Demo-2026!", "v7#Kq!9zL@pW2mRt", "Tangerine-Quasar-81-Fjord!"])
      assert.equal(easilyGuessed(password, ["alice", "ACME"]), false, password);
  });

  it("estimates only the first 24 characters, so no password costs more than a short one", () => {
    assert.equal(easilyGuessed(`v7#Kq!9zL@pW2mRt-Fjord81${"password".repeat(20)}`, []), false, "a strong start");
    assert.equal(easilyGuessed(`Password123!Password123!${"Zq!8".repeat(20)}`, []), true, "a guessable start");
  });

  it("estimates a very long password at once", () => {
    const long = `v7#Kq!9zL@pW2mRt${"x".repeat(1_000)}`;
    const started = performance.now();
    assert.equal(easilyGuessed(long, []), false);
    assert.ok(performance.now() - started < 2_000, "a 1,016-character password is judged at once");
  });
});

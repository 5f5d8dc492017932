// The passwords attackers try first are refused, however they meet the composition rules; the person's own name and
// company count as known words (docs/decisions.md, "Easily guessed passwords").
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import list from "#server/actions/common-passwords.json" with { type: "json" };
import { easilyGuessed, guessedAs } from "#server/actions/common-passwords.ts";

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
    assert.equal(guessedAs("Vandelay2026!", ["bob", "vandelay"]), "personal", "told apart from a common one");
    assert.equal(guessedAs("Password123!", ["bob", "vandelay"]), "common");
  });

  it("is not a long, unpredictable one", () => {
    for (const password of ["Portal-Demo-2026!", "v7#Kq!9zL@pW2mRt", "Tangerine-Quasar-81-Fjord!"])
      assert.equal(easilyGuessed(password, ["alice", "ACME"]), false, password);
  });

  it("is a common one repeated, and not a strong one that only ends with common words", () => {
    assert.equal(easilyGuessed("Password123!".repeat(3), []), true, "a common one, three times");
    assert.equal(easilyGuessed(`v7#Kq!9zL@pW2mRt-Fjord81${"password".repeat(20)}`, []), false, "a strong start");
  });

  it("is a common one in l33t spelling or with digits and symbols around it", () => {
    for (const password of ["Dr4g0n!202455", "2024!!Dragon", "$unshine!!99", "B@seball#1987"])
      assert.equal(easilyGuessed(password, []), true, password);
  });

  it("is a common one with a letter or two added at an end, or separators and digits inside it", () => {
    for (const password of [
      "Password123!a",
      "Password123!x1",
      "aPassword123!",
      "Pass-word-123!",
      "Pass1word23!",
      "Passwordpassword1!",
      "Password2Password!",
      "1qaz2wsx3edc!Q",
    ])
      assert.equal(easilyGuessed(password, []), true, password);
  });

  it("is any of the 10,000 most common, dressed up to pass the rules", () => {
    for (const word of list.slice(0, 1_000)) {
      const dressed = `${word.charAt(0).toUpperCase()}${word.slice(1)}2024!`;
      assert.equal(easilyGuessed(dressed, []), true, dressed);
    }
  });

  it("contains its user's ID or company, whatever their case and the blanks around them", () => {
    assert.equal(easilyGuessed("Xq!9-ACME-Lantern-7", [" acme "]), true);
    assert.equal(easilyGuessed("Xq!9-Al-Lantern-7", ["al"]), false, "a known word of two letters says nothing");
  });

  it("judges a very long password at once", () => {
    const long = `v7#Kq!9zL@pW2mRt${"x".repeat(1_000)}`;
    const started = performance.now();
    assert.equal(easilyGuessed(long, []), false);
    assert.ok(performance.now() - started < 2_000, "a 1,016-character password is judged at once");
  });
});

// requirements 5, "New password": the rules, their order and their messages.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { newPasswordProblem, passwordProblem, requirements, SPECIAL_CHARACTERS } from "#web/password-rules.ts";

describe("a new password", () => {
  it("must be at least 12 characters, else 'Password must be at least 12 characters in length.'", () => {
    assert.equal(
      newPasswordProblem("Ab1!Ab1!Ab1", "Ab1!Ab1!Ab1"),
      "Password must be at least 12 characters in length.",
    );
  });

  it("is checked for length before the confirmation", () => {
    assert.equal(newPasswordProblem("short", "different"), "Password must be at least 12 characters in length.");
  });

  it("must equal Confirm Password, else 'New and confirm password do not match.'", () => {
    assert.equal(newPasswordProblem("Abcdef12345!", "Abcdef12345?"), "New and confirm password do not match.");
  });

  it("is checked for the confirmation before complexity", () => {
    assert.equal(newPasswordProblem("abcdefghijkl", "abcdefghijkm"), "New and confirm password do not match.");
  });

  it("must meet the complexity requirements, else 'Password does not meet password requirements'", () => {
    for (const weak of ["abcdefghij1!", "ABCDEFGHIJ1!", "Abcdefghijk!", "Abcdefghijk1"]) {
      assert.equal(newPasswordProblem(weak, weak), "Password does not meet password requirements", weak);
    }
  });

  it("passes with 12 characters, a lowercase, an uppercase, a digit and a special character", () => {
    assert.equal(newPasswordProblem("Abcdefghij1!", "Abcdefghij1!"), undefined);
  });

  it("accepts every special character of the set ! @ # $ % ^ & * ( ) / < > ? | _ + - = , .", () => {
    assert.equal(SPECIAL_CHARACTERS, "!@#$%^&*()/<>?|_+-=,.");
    for (const special of SPECIAL_CHARACTERS) {
      assert.equal(newPasswordProblem(`Abcdefghij1${special}`, `Abcdefghij1${special}`), undefined, special);
    }
  });

  it("does not count characters outside the set as special", () => {
    for (const other of ["~", "`", "'", '"', ";", ":", "[", "]", "{", "}", " ", "é"]) {
      assert.equal(
        newPasswordProblem(`Abcdefghij1${other}`, `Abcdefghij1${other}`),
        "Password does not meet password requirements",
        other,
      );
    }
  });
});

describe("the password-strength rule applied by the server", () => {
  it("gives the length message first, then the complexity message", () => {
    assert.equal(passwordProblem("Ab1!"), "Password must be at least 12 characters in length.");
    assert.equal(passwordProblem("abcdefghijkl"), "Password does not meet password requirements");
    assert.equal(passwordProblem("Abcdefghij1!"), undefined);
  });
});

describe("the requirements checklist", () => {
  it("ticks each requirement as it is met", () => {
    const met = (password: string) => requirements.filter((rule) => rule.met(password)).map((rule) => rule.id);
    assert.deepEqual(met(""), []);
    assert.deepEqual(met("a"), ["lower"]);
    assert.deepEqual(met("aA1!"), ["lower", "upper", "digit", "special"]);
    assert.deepEqual(met("aA1!aA1!aA1!"), ["length", "lower", "upper", "digit", "special"]);
  });
});

describe("each requirement's pattern", () => {
  it("read as a page's own script reads it (its source, no flags), ticks what the form's check ticks", () => {
    const samples = ["", "abcdefghijk", "abcdefghijkl", "ABC", "9", "^", "-", "]", "\\", "[", "~", "é", "😀".repeat(6)];
    for (const special of SPECIAL_CHARACTERS) samples.push(special, `x${special}y`);
    for (const rule of requirements)
      for (const sample of samples)
        assert.equal(new RegExp(rule.pattern).test(sample), rule.met(sample), `${rule.id}: ${JSON.stringify(sample)}`);
  });

  it("counts length as the form does, in UTF-16 units, and a special character only from the set", () => {
    const [length, , , , special] = requirements;
    assert.equal(length.met("😀".repeat(6)), "😀".repeat(6).length >= 12);
    assert.equal(length.met("a".repeat(11)), false);
    for (const other of ["^^", "--", "]", "\\", "[", "a-z"])
      assert.equal(special.met(other), /[\^-]/.test(other), other);
  });
});

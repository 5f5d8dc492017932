// One input rule for the names a person types: surrounding white space is not part of them, and a field longer than
// the upstream takes is refused by its name.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { keptTyped, missingName, TYPED_LIMITS, tooLongField, trimNames } from "#web/protocol/typed-names.ts";

describe("the names a person types", () => {
  it("are trimmed of surrounding white space: the company, the user ID and the e-mail address", () => {
    assert.deepEqual(trimNames({ shortname: " GLOBEX ", username: "\tgary\n", password: " pw " }), {
      shortname: "GLOBEX",
      username: "gary",
      password: " pw ",
    });
    assert.deepEqual(trimNames({ clientShortName: " ACME", emailAddress: "alice@acme.example  " }), {
      clientShortName: "ACME",
      emailAddress: "alice@acme.example",
    });
  });

  it("leave the password, fields of another type and bodies that are not objects as they came", () => {
    const body = { username: 42, password: "  both  " };
    assert.equal(trimNames(body), body);
    for (const other of [undefined, null, "text", ["username"]]) assert.equal(trimNames(other), other);
  });
});

describe("a required name of only blanks (issue 37)", () => {
  it("is named in the words the form says, the first of them in the form's order", () => {
    assert.equal(missingName({ shortname: "ACME", username: "   ", password: "pw" }), "User ID is required.");
    assert.equal(missingName({ username: "", password: "pw" }), "User ID is required.");
    assert.equal(missingName({ shortname: " \t", username: " " }), "Company Short Name is required.");
    assert.equal(missingName({ clientShortName: "ACME", emailAddress: "  " }), "Email Address is required.");
  });

  it("is none for a vendor's reset with no company, a name typed, a field of another type, or no body", () => {
    assert.equal(missingName({ clientShortName: "", emailAddress: "vera@example.com" }), undefined);
    assert.equal(missingName({ shortname: " ACME ", username: "alice", password: " " }), undefined, "passwords aside");
    assert.equal(missingName({ username: 7 }), undefined);
    for (const other of [undefined, null, "text", [""]]) assert.equal(missingName(other), undefined);
  });
});

describe("a field typed longer than it may be", () => {
  it("is named in the words of the screen it was typed on, the first of them in the form's order", () => {
    const long = "x".repeat(5_000);
    assert.equal(tooLongField({ shortname: "ACME", username: long, password: "pw" }), "User ID is too long.");
    assert.equal(tooLongField({ shortname: long, username: long }), "Company Short Name is too long.");
    assert.equal(tooLongField({ username: "vera", password: long }), "Password is too long.");
    assert.equal(
      tooLongField({ clientShortName: "", emailAddress: `${long}@example.com` }),
      "Email Address is too long.",
    );
    assert.equal(
      tooLongField({ clientShortName: long, emailAddress: "a@example.com" }),
      "Company Short Name is too long.",
    );
  });

  it("is none at its limit, as openapi/portal.yaml's bodies allow; nor is a field of another type, or no body", () => {
    const atLimit = Object.fromEntries(Object.entries(TYPED_LIMITS).map(([name, most]) => [name, "x".repeat(most)]));
    assert.equal(tooLongField(atLimit), undefined);
    assert.deepEqual(TYPED_LIMITS, {
      shortname: 64,
      username: 128,
      clientShortName: 64,
      emailAddress: 254,
      userId: 128,
      password: 256,
    });
    for (const other of [undefined, null, "x".repeat(5_000), { username: 5_000 }])
      assert.equal(tooLongField(other), undefined);
  });

  it("is not kept as typed for the page sent back: it could not be sent, and would not fit the session's cookie", () => {
    assert.equal(keptTyped("username", " alice "), " alice ");
    assert.equal(keptTyped("username", "x".repeat(129)), "");
    assert.equal(keptTyped("emailAddress", ` ${"x".repeat(254)} `), ` ${"x".repeat(254)} `, "trimmed, it fits");
  });
});

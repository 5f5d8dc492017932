// One input rule for the names a person types: surrounding white space is not part of them.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { trimNames } from "#web/protocol/typed-names.ts";

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

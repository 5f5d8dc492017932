// web/protocol/person-key.ts: a person as the upstream names them, compared as the upstream compares (ASCII case and
// surrounding blanks only), each part escaped.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { foldAscii, personKey } from "#web/protocol/person-key.ts";

describe("the person key", () => {
  it("folds ASCII case and surrounding blanks only, as the upstream compares user IDs", () => {
    assert.equal(personKey("client", "ACME", "ALICE"), personKey("client", "acme", "alice"));
    assert.notEqual(personKey("client", "ACME", "\u212Aelvin"), personKey("client", "ACME", "kelvin"), "Kelvin sign");
    assert.equal(personKey("client", " ACME ", "\talice "), personKey("client", "ACME", "alice"), "ASCII blanks");
    assert.notEqual(personKey("client", "ACME", "alice\u00a0"), personKey("client", "ACME", "alice"), "only ASCII");
    assert.equal(foldAscii("Straße ÄB"), "straße Äb");
  });

  it("is a key for any text JSON can carry, a lone surrogate included", () => {
    assert.equal(personKey("client", "\ud800", "alice"), "client/%EF%BF%BD/alice");
    assert.equal(personKey("client", "ACME", "\u{1F600}"), "client/acme/%F0%9F%98%80", "a pair stays itself");
  });

  it("cannot be spelled by another company and user ID pair", () => {
    assert.notEqual(personKey("client", "a/b", "c"), personKey("client", "a", "b/c"));
  });
});

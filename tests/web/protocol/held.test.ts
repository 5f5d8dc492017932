// The token-free answers the portal gives in place of the upstream's (requirements 10.1: the token stays in the session).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { asHeld } from "#web/protocol/held.ts";

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

// The portal's own texts that the requirements do not give: each has a stable code, and those with a number say it
// in plain words.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { serverTexts } from "#server/texts.ts";

describe("the portal's own texts", () => {
  it("say how long to wait, one second or several", () => {
    assert.equal(serverTexts.throttled.message(1), "Too many attempts. Please wait 1 second and try again.");
    assert.equal(serverTexts.throttled.message(42), "Too many attempts. Please wait 42 seconds and try again.");
  });

  it("name the limit of query parameters", () => {
    assert.equal(serverTexts.tooManyParameters.message(50), "The address has too many query parameters (at most 50).");
  });

  it("give every text its own code, which answers and tests refer to", () => {
    const codes = Object.values(serverTexts).map((text) => text.code);
    assert.equal(new Set(codes).size, codes.length);
    for (const code of codes) assert.match(code, /^[a-z]+(-[a-z]+)*$/, code);
  });
});

// The browser tab's text: the page's own title first, then the portal's name.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { brand, documentTitle } from "#web/texts/document-title.ts";

describe("the browser tab's text", () => {
  it("names the page, then the portal", () => {
    assert.equal(brand, "Payments Portal");
    assert.equal(documentTitle("Sign In"), "Sign In · Payments Portal");
    assert.equal(documentTitle("Home · Client"), "Home · Client · Payments Portal");
  });
});

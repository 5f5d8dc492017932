// The page frame's words that depend on the page: the footer's year and the header's account when no name is known.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { layoutTexts } from "#web/texts/layout.ts";

describe("the page frame", () => {
  it("shows the brand and a copyright notice for the year in the footer (requirements 1)", () => {
    assert.equal(layoutTexts.copyright(2026), "© 2026 Payments Portal. All rights reserved.");
  });

  it("names the account by its audience when neither user nor company is known", () => {
    assert.equal(layoutTexts.accountOf("client"), "Client account");
    assert.equal(layoutTexts.accountOf("vendor"), "Vendor account");
  });

  it("writes the browser tab's text as the document title does", () => {
    assert.equal(layoutTexts.documentTitle("Inbox · Vendor"), "Inbox · Vendor · Payments Portal");
  });
});

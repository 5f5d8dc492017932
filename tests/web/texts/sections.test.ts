// The section layouts' words that depend on the page: its title, the greeting, the way back, the document frame.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sectionTexts } from "#web/texts/sections.ts";

describe("a section page's title", () => {
  it("names its section, so a client's and a vendor's pages differ", () => {
    assert.equal(sectionTexts.pageTitle("Home", "client"), "Home · Client");
    assert.equal(sectionTexts.pageTitle("Home", "vendor"), "Home · Vendor");
    assert.equal(sectionTexts.pageTitle("Docket", "uspto"), "Docket · Patent fees");
    assert.equal(sectionTexts.pageTitle("Reconcile", "uscis"), "Reconcile · Immigration fees");
  });

  it("does not say the section twice when the title is the section's name, whatever its case", () => {
    assert.equal(sectionTexts.pageTitle("Patent Fees", "uspto"), "Patent Fees");
    assert.equal(sectionTexts.pageTitle("client", "client"), "client");
  });

  it("labels the navigation by its section", () => {
    assert.equal(sectionTexts.navLabel("uscis"), "Immigration fees pages");
  });
});

describe("the way on from a page", () => {
  it("goes back to the home page by its title, or by a plain name when it has none", () => {
    assert.equal(sectionTexts.backToHome("Client Home"), "Back to Client Home");
    assert.equal(sectionTexts.backToHome(), "Back to your home page");
    assert.equal(sectionTexts.backToHome(""), "Back to your home page");
  });

  it("names a document's frame, its download and the other pages of its area", () => {
    assert.equal(sectionTexts.documentFrame("Bank Holidays"), "Bank Holidays (PDF)");
    assert.equal(sectionTexts.download("BankHolidays.pdf"), "Download BankHolidays.pdf");
    assert.equal(sectionTexts.relatedIn("Reports"), "Other Reports pages:");
    assert.equal(sectionTexts.pagesOf("VIP"), "VIP pages");
  });
});

// The builders of the route table's rows: a section's paths, a row's screen, and "the same screen as" (requirements 2).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { rowsOf } from "#web/routes/row.ts";

describe("a row", () => {
  it("puts its path under its section, the empty path being the section's index", () => {
    const { row } = rowsOf("vendor");
    assert.equal(row("/inbox", "Inbox").path, "/vendor/inbox");
    assert.equal(row("", "Vendor Home").path, "/vendor");
    assert.equal(row("/inbox", "Inbox").section, "vendor");
  });

  it("keeps a public path as written, under no section", () => {
    const entry = rowsOf("public").row("/register", "Registration");
    assert.equal(entry.path, "/register");
    assert.equal(entry.section, "public");
  });

  it("shows the about screen by default, the PDF screen when it names a PDF, or the screen it names", () => {
    const { row } = rowsOf("client");
    assert.equal(row("/inbox", "Inbox").screen, "about");
    const document = row("/docs/bank-holidays", "Bank Holidays", { pdf: "BankHolidays.pdf" });
    assert.equal(document.screen, "pdf");
    assert.equal(document.pdf, "BankHolidays.pdf");
    assert.equal(row("/home", "Client Home", { screen: "home" }).screen, "home");
  });

  it("carries its title, gate, navigation group and purpose as given", () => {
    const entry = rowsOf("client").row("/users/admin", "User Administration", {
      gate: "isAdmin",
      group: "Users",
      about: "Manage the company's users.",
    });
    assert.deepEqual(entry, {
      path: "/client/users/admin",
      section: "client",
      title: "User Administration",
      screen: "about",
      gate: "isAdmin",
      group: "Users",
      about: "Manage the company's users.",
    });
  });
});

describe("a row that shows another row's screen", () => {
  const { row, same } = rowsOf("uscis");
  const home = row("/home", "Immigration Fees Home", { screen: "home", group: "Home", about: "The section's home." });

  it("has its own path, and the original's screen, title, purpose and gate", () => {
    const alias = same("/downloads", home);
    assert.equal(alias.path, "/uscis/downloads");
    assert.equal(alias.sameAs, "/uscis/home");
    assert.deepEqual(
      [alias.section, alias.screen, alias.title, alias.about, alias.gate],
      [home.section, home.screen, home.title, home.about, home.gate],
    );
  });

  it("is not listed in the navigation, so a screen is listed once", () => {
    assert.equal(same("", home).group, undefined);
    assert.equal("group" in same("", home), false);
    assert.equal(home.group, "Home");
  });

  it("names the first row of the screen when it copies a copy", () => {
    const copy = same("/templates", same("/downloads", home));
    assert.equal(copy.sameAs, "/uscis/home");
  });
});

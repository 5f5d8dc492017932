// Login by link's words (requirements 2.6 and 4.6), and how its page names the session a link would replace.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { linkLoginTexts } from "#web/texts/link-login.ts";

describe("login by link", () => {
  it("says Login Failed: with the failure's error", () => {
    assert.equal(linkLoginTexts.failed("Action Failed"), "Login Failed: Action Failed");
  });

  it("names a session by its user and company", () => {
    assert.equal(linkLoginTexts.whoIs({ name: "alice", site: "client", company: "ACME" }), "alice, ACME");
    assert.equal(linkLoginTexts.whoIs({ name: "vera", site: "vendor" }), "vera");
    assert.equal(
      linkLoginTexts.signedInAs(linkLoginTexts.whoIs({ name: "alice", site: "client", company: "ACME" })),
      "You are signed in as alice, ACME.",
    );
  });

  it("names a session by its audience when the user ID is not known", () => {
    assert.equal(linkLoginTexts.whoIs({ name: "", site: "vendor" }), "a vendor");
    assert.equal(linkLoginTexts.whoIs({ name: "", site: "client" }), "a client");
    assert.equal(linkLoginTexts.whoIs({ name: "", site: "client", company: "ACME" }), "a client, ACME");
    assert.equal(linkLoginTexts.whoIs({ name: "", site: "client", company: "" }), "a client");
  });
});

// The login page's sentences with blanks, as requirements 1 and 8.2 spell them.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loginTexts } from "#web/texts/login-screen.ts";

describe("the login page", () => {
  it("names the provider in the deactivation message", () => {
    assert.equal(
      loginTexts.deactivated("Acme Payments"),
      "This account has been deactivated. Please contact Acme Payments to restore your account.",
    );
  });

  it("shows requirements 1's support text with the configured contacts", () => {
    assert.equal(
      loginTexts.support("+1 800 555 0100", "+44 20 7946 0000", "help@example.com"),
      "Still having trouble? Please contact us: +1 800 555 0100 or (UK) +44 20 7946 0000 or email help@example.com",
    );
  });

  it("keeps the support text's words apart from its contacts, so each contact can be a link", () => {
    const [before, uk, email] = loginTexts.supportParts;
    assert.equal(`${before}P${uk}U${email}E`, loginTexts.support("P", "U", "E"));
  });
});

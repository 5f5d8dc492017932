// What the sign-in page says around the login island: where a kept deep link leads, and how the last session ended.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { endReasons, unannounced } from "#web/protocol/session-end.ts";
import { loginNotices } from "#web/texts/login-notices.ts";
import { mfaTexts } from "#web/texts/mfa.ts";

describe("the notice of how the session before ended", () => {
  it("is nothing exactly for the ends the person chose", () => {
    for (const reason of endReasons) {
      assert.equal(loginNotices.sessionEnded(reason, 30) === undefined, unannounced(reason), reason);
    }
  });

  it("is requirements 4.5's session-expired message for a session the portal ended", () => {
    for (const reason of ["revoked", "lifetime", "upstream-refused", "code-not-sent", "not-signed-in"] as const) {
      assert.equal(loginNotices.sessionEnded(reason, 30), "Your session has expired. Please Login again", reason);
    }
  });

  it("adds the idle timeout, in minutes counted by the plural rules, when inactivity ended it", () => {
    assert.equal(
      loginNotices.sessionEnded("idle", 30),
      "Your session has expired. Please Login again. It ended after 30 minutes without activity.",
    );
    assert.equal(
      loginNotices.sessionEnded("idle", 1),
      "Your session has expired. Please Login again. It ended after 1 minute without activity.",
    );
  });

  it("says why when too many wrong codes or a session too large for the cookie ended it", () => {
    assert.equal(loginNotices.sessionEnded("mfa-attempts", 30), mfaTexts.attemptsExhausted);
    assert.equal(loginNotices.sessionEnded("too-large", 30), loginNotices.sessionTooLarge);
  });
});

describe("a kept deep link", () => {
  it("is named above the login form", () => {
    assert.equal(loginNotices.continueTo("Invoice Cart · Client"), "Sign in to continue to Invoice Cart · Client");
  });
});

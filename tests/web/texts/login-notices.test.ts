// What the sign-in page says around the login island: where a kept deep link leads, and how the last session ended
// (which a page whose session ended says in place too).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { endReasons, unannounced } from "#web/protocol/session-end.ts";
import { loginNotices } from "#web/texts/login-notices.ts";
import { mfaTexts } from "#web/texts/mfa.ts";

const limits = { idleMinutes: 30, maxHours: 12 };

describe("the notice of how the session before ended", () => {
  it("is nothing exactly for the ends the person chose, but a sign-out, which the other tabs are told in its words", () => {
    for (const reason of endReasons.filter((ended) => ended !== "signed-out")) {
      assert.equal(loginNotices.sessionEnded(reason, limits) === undefined, unannounced(reason), reason);
    }
    assert.equal(loginNotices.sessionEnded("signed-out", limits), "You have signed out.");
  });

  it("is requirements 4.5's session-expired message for a session the portal ended without a reason to give", () => {
    for (const reason of ["revoked", "upstream-refused", "code-not-sent", "not-signed-in"] as const) {
      assert.equal(loginNotices.sessionEnded(reason, limits), "Your session has expired. Please Login again", reason);
    }
  });

  it("adds the idle timeout, in minutes counted by the plural rules, when inactivity ended it", () => {
    assert.equal(
      loginNotices.sessionEnded("idle", limits),
      "Your session has expired. Please Login again. It ended after 30 minutes without activity.",
    );
    assert.equal(
      loginNotices.sessionEnded("idle", { ...limits, idleMinutes: 1 }),
      "Your session has expired. Please Login again. It ended after 1 minute without activity.",
    );
  });

  it("adds the absolute lifetime, in hours counted by the plural rules, when the session reached it", () => {
    assert.equal(
      loginNotices.sessionEnded("lifetime", limits),
      "Your session has expired. Please Login again. It ended after 12 hours, the longest a session lasts.",
    );
    assert.equal(
      loginNotices.sessionEnded("lifetime", { ...limits, maxHours: 1 }),
      "Your session has expired. Please Login again. It ended after 1 hour, the longest a session lasts.",
    );
  });

  it("says who ended it when it was another device, a password change or a reset", () => {
    assert.equal(loginNotices.sessionEnded("ended-elsewhere", limits), "You were signed out from another device.");
    assert.equal(
      loginNotices.sessionEnded("password-changed", limits),
      "Your password was changed. Please sign in with your new password.",
    );
    assert.equal(
      loginNotices.sessionEnded("password-reset", limits),
      "Your password was reset. Please sign in with your new password.",
    );
  });

  it("says why when too many wrong codes or a session too large for the cookie ended it", () => {
    assert.equal(loginNotices.sessionEnded("mfa-attempts", limits), mfaTexts.attemptsExhausted);
    assert.equal(loginNotices.sessionEnded("too-large", limits), loginNotices.sessionTooLarge);
  });
});

describe("a kept deep link", () => {
  it("is named above the login form", () => {
    assert.equal(loginNotices.continueTo("Invoice Cart · Client"), "Sign in to continue to Invoice Cart · Client");
  });
});

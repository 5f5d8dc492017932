// The account-security sections' words with blanks: the throttle, the last sign-in and those since, the failures
// counted, the sessions ended (requirements 11.3).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { accountTexts } from "#web/texts/account.ts";
import { endOthersTexts } from "#web/texts/end-others.ts";

describe("the account sections", () => {
  it("say how long a throttled person waits, counted by the plural rules", () => {
    assert.equal(accountTexts.throttled(1), "Too many attempts. Try again in 1 second.");
    assert.equal(accountTexts.throttled(30), "Too many attempts. Try again in 30 seconds.");
  });

  it("tell the last sign-in, and the failed attempts since", () => {
    assert.equal(
      accountTexts.lastSignIn("Tuesday 24 November at 10:42", "Firefox on Linux"),
      "Last signed in Tuesday 24 November at 10:42 from Firefox on Linux.",
    );
    assert.equal(accountTexts.failedSince(1, 1, false), "1 failed sign-in attempt from 1 address since then.");
    assert.equal(accountTexts.failedSince(25, 3, false), "25 failed sign-in attempts from 3 addresses since then.");
    assert.equal(accountTexts.failedSince(900, 50, true), "900 failed sign-in attempts from 50+ addresses since then.");
  });

  it("count the failures of each kind in one row, with the span and the latest", () => {
    assert.equal(
      accountTexts.failures("password.test-failed", 2, 1, false),
      "2 wrong current passwords from 1 address",
    );
    assert.equal(accountTexts.failures("mfa.code-wrong", 3, 2, false), "3 wrong verification codes from 2 addresses");
    assert.equal(
      accountTexts.between("Tuesday 24 November at 10:42", "Tuesday 24 November at 11:40"),
      "Tuesday 24 November at 10:42 to Tuesday 24 November at 11:40",
    );
    assert.equal(
      accountTexts.latest("Firefox on Windows", "203.0.113.5"),
      "The latest from Firefox on Windows, 203.0.113.5",
    );
  });

  it("name the sign-ins made elsewhere since this one, each by its device and time", () => {
    const since = (device: string, when: string) => accountTexts.signInElsewhere(device, when);
    assert.equal(
      accountTexts.alsoSignedInSince([since("Firefox on Windows", "Tuesday 24 November at 10:42")]),
      "Also signed in since: Firefox on Windows, Tuesday 24 November at 10:42.",
    );
    assert.equal(
      accountTexts.alsoSignedInSince([since("Safari on iOS", "Tuesday at 11:00"), since("Chrome on Linux", "Monday")]),
      "Also signed in since: Safari on iOS, Tuesday at 11:00; Chrome on Linux, Monday.",
    );
  });

  it("say the sessions ended as a password change says them", () => {
    assert.equal(accountTexts.ended, endOthersTexts.ended);
    assert.equal(accountTexts.ended(2), "2 other sessions were signed out.");
  });
});

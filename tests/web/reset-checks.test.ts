// The reset panel's check before anything is sent: requirements 5's required fields only.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resetProblem } from "#web/reset-checks.ts";

describe("the reset check", () => {
  it("requires the company only on the client reset, and any e-mail address", () => {
    assert.equal(resetProblem("client", "", "a@b")?.field, "clientShortName");
    assert.equal(resetProblem("vendor", "", "a@b"), undefined);
    assert.equal(resetProblem("vendor", "", " ")?.message, "Email Address is required.");
    assert.equal(resetProblem("client", "ACME", "not an address"), undefined);
  });
});

// The sign-in path's checks before anything is sent: requirements 5's order and words, for the islands and the forms alike.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loginProblem, mfaCodeOf, resetProblem } from "#web/sign-in-checks.ts";

describe("the sign-in checks", () => {
  it("checks Company Short Name, User ID, then Password on the client form", () => {
    assert.deepEqual(loginProblem("client", { shortName: " ", userName: "", password: "" }), {
      message: "Company Short Name is required.",
      field: "shortName",
    });
    assert.equal(loginProblem("client", { shortName: "ACME", userName: "", password: "" })?.field, "userName");
    assert.equal(
      loginProblem("client", { shortName: "ACME", userName: "alice", password: "" })?.message,
      "Password is required.",
    );
    assert.equal(loginProblem("client", { shortName: "ACME", userName: "alice", password: "x" }), undefined);
  });

  it("asks the vendor form for no company", () => {
    assert.equal(loginProblem("vendor", { shortName: "", userName: "vera", password: "x" }), undefined);
    assert.equal(
      loginProblem("vendor", { shortName: "", userName: "", password: "x" })?.message,
      "User ID is required.",
    );
  });

  it("requires the company only on the client reset, and any e-mail address", () => {
    assert.equal(resetProblem("client", "", "a@b")?.field, "clientShortName");
    assert.equal(resetProblem("vendor", "", "a@b"), undefined);
    assert.equal(resetProblem("vendor", "", " ")?.message, "Email Address is required.");
    assert.equal(resetProblem("client", "ACME", "not an address"), undefined);
  });

  it("sends a code's digits without what separates them, and never a code with other signs", () => {
    assert.deepEqual(mfaCodeOf("850 894"), { code: "850894" });
    assert.deepEqual(mfaCodeOf("850-894"), { code: "850894" });
    assert.deepEqual(mfaCodeOf("  "), { problem: "Code is required." });
    assert.ok("problem" in mfaCodeOf("85O894"));
  });
});

// The login form's checks before anything is sent: requirements 5's order and words, for the island and the form alike.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loginProblem } from "#web/sign-in-checks.ts";

describe("the login checks", () => {
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
});

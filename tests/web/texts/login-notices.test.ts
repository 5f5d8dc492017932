// What the sign-in page says around the login island: where a kept deep link leads (how the last session ended is
// worded by server/session/why-ended.ts's table: tests/server/session/why-ended.test.ts).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loginNotices } from "#web/texts/login-notices.ts";

describe("a kept deep link", () => {
  it("is named above the login form", () => {
    assert.equal(loginNotices.continueTo("Invoice Cart · Client"), "Sign in to continue to Invoice Cart · Client");
  });
});

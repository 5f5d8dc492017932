// Whether a host is this machine's loopback, answered in one place for the HOST setting and a request's hostname.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isEveryInterface, isLoopback } from "#server/security/loopback.ts";

describe("loopback hosts", () => {
  it("localhost, 127.0.0.1 and ::1 (bare or bracketed, as a request's hostname gives it) are loopback", () => {
    for (const host of ["localhost", "LOCALHOST", "127.0.0.1", "::1", "[::1]"])
      assert.equal(isLoopback(host), true, host);
  });

  it("an address on every interface, or any other, is not: it reaches beyond this machine", () => {
    for (const host of ["0.0.0.0", "::", "portal.example", "10.0.0.5", "127.0.0.1.example"])
      assert.equal(isLoopback(host), false, host);
    for (const host of ["0.0.0.0", "::", "[::]"]) assert.equal(isEveryInterface(host), true, host);
  });
});

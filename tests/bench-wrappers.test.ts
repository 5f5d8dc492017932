// Bench row 11's plain sides (scripts/bench/wrappers.ts) build: each stands in for a wrapper module of the portal, so it
// must export whatever the portal imports of that module, or the row cannot run.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildPlainSides } from "#scripts/bench/wrappers.ts";

describe("bench row 11's plain sides", () => {
  it("each build the portal with the plain library in the wrapper's place", async () => {
    assert.deepEqual(await buildPlainSides(), [
      "scripts/bench/plain/upstream-call.ts",
      "scripts/bench/plain/security-headers.ts",
    ]);
  });
});

// What of an upstream's failed answer reaches the browser (requirements 8): the fields of a 4xx, as text, bounded.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { errorShape } from "#server/api/error-shape.ts";

describe("an upstream error's shape in the browser", () => {
  it("passes a 4xx's detail, description and field errors", () => {
    const body = { detail: "Invalid", description: "Code expired", errors: { code: "Too short" }, trace: "x" };
    assert.deepEqual(errorShape(400, body), {
      detail: "Invalid",
      description: "Code expired",
      errors: { code: "Too short" },
    });
  });

  it("passes nothing of a 5xx, whatever it says", () => {
    assert.deepEqual(errorShape(500, { detail: "NullPointerException at com.provider…" }), {});
    assert.deepEqual(errorShape(503, { description: "maintenance" }), {});
  });

  it("passes nothing of a body that is not an object", () => {
    for (const body of [null, undefined, "text", 42, true]) assert.deepEqual(errorShape(400, body), {});
  });

  it("drops fields that are not text, and field errors that are not a map of texts", () => {
    assert.deepEqual(errorShape(422, { detail: 5, description: { html: "<b>" }, errors: ["a", "b"] }), {});
    assert.deepEqual(errorShape(422, { errors: { a: "kept", b: 3, c: null } }), { errors: { a: "kept" } });
    assert.deepEqual(errorShape(422, { errors: { a: 3 } }), {});
  });

  it("cuts each text at 500 characters and keeps at most 50 field errors", () => {
    const long = "x".repeat(2_000);
    const errors = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`field${i}`, long]));
    const shape = errorShape(400, { detail: long, description: long, errors });
    assert.equal((shape.detail as string).length, 500);
    assert.equal((shape.description as string).length, 500);
    const kept = shape.errors as Record<string, string>;
    assert.equal(Object.keys(kept).length, 50);
    assert.ok(Object.values(kept).every((text) => text.length === 500));
  });
});

// Island props serialization: the props an island's script element carries.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { serializeProps } from "#web/islands/serialize.ts";

describe("island props", () => {
  it("cannot close their script element or open a comment", () => {
    const text = serializeProps({ error: "</script><script>alert(1)</script><!--", line: "a\u2028b" });
    assert.doesNotMatch(text, /[<>]/);
    assert.doesNotMatch(text, /\u2028/);
    assert.deepEqual(JSON.parse(text), { error: "</script><script>alert(1)</script><!--", line: "a\u2028b" });
  });
});

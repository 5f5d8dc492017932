// server/stores/person-marks.ts: a person's mark ends their sessions begun before it, but the one that asked; a later
// mark replaces an earlier one, never the reverse; marks are kept for the sessions' lifetime, and bounded.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { endedBy, MemoryPersonMarks } from "#server/stores/person-marks.ts";

describe("a person's mark", () => {
  it("ends every session begun before it but the one that asked, and none begun after", () => {
    const mark = { before: 1_000, except: "asker" };
    assert.equal(endedBy(mark, "other", 999), true);
    assert.equal(endedBy(mark, "asker", 999), false, "the session that asked goes on");
    assert.equal(endedBy(mark, "later", 1_000), false, "a session begun at or after it goes on");
    assert.equal(endedBy(undefined, "other", 0), false, "no mark ends nothing");
  });

  it("is replaced by a later one only, and is kept for the sessions' lifetime", async () => {
    let time = 1_000;
    const marks = new MemoryPersonMarks(60_000, () => time);
    assert.equal(await marks.mark("client/acme/alice", { before: 2_000, except: "b" }), true);
    assert.equal(marks.keep("client/acme/alice", { before: 1_000, except: "a" }), false, "an earlier one is dropped");
    assert.equal(marks.ends("client/acme/alice", "a", 1_500), true);
    assert.equal(marks.ends("client/acme/bob", "a", 1_500), false, "another person's sessions go on");
    time += 60_001;
    assert.equal(marks.ends("client/acme/alice", "a", 1_500), false, "gone after the lifetime");
  });

  it("keeps at most its bound of people, the least recently marked going first", async () => {
    const marks = new MemoryPersonMarks(60_000, Date.now, 3);
    for (const person of ["p1", "p2", "p3", "p4"]) await marks.mark(person, { before: 10, except: "x" });
    assert.equal(marks.ends("p1", "y", 1), false);
    assert.equal(marks.ends("p4", "y", 1), true);
  });
});

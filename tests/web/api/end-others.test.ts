// What a password change's answer says of the other sessions: one reading for the island and the plain form.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ENDED_COUNT_HEADER, ENDING_HEADER, sessionsEndedNote } from "#web/api/end-others.ts";
import { endOthersTexts } from "#web/texts/end-others.ts";

const headers = (values: Record<string, string>) => (name: string) => values[name.toLowerCase()];

describe("the note on the other sessions after a password change", () => {
  it("says how many ended", () => {
    assert.equal(sessionsEndedNote(headers({ [ENDED_COUNT_HEADER]: "2" })), endOthersTexts.ended(2));
  });

  it("says the ending is still on its way when the shared store could not take it", () => {
    const note = sessionsEndedNote(headers({ [ENDED_COUNT_HEADER]: "1", [ENDING_HEADER]: "1" }));
    assert.equal(note, endOthersTexts.ending(1));
    assert.notEqual(note, endOthersTexts.ended(1));
  });

  it("says nothing when no session was asked to end, or the count is not a number", () => {
    assert.equal(sessionsEndedNote(headers({})), undefined);
    assert.equal(sessionsEndedNote(headers({ [ENDED_COUNT_HEADER]: "many" })), undefined);
  });
});

// Why a session ended, and which ends the sign-in page tells the person about.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { endReasons, unannounced } from "#web/protocol/session-end.ts";

describe("the end of a session", () => {
  it("goes unannounced when the person chose it: signed out, or replaced by their own new sign-in", () => {
    assert.equal(unannounced("signed-out"), true);
    assert.equal(unannounced("replaced"), true);
  });

  it("is announced for every end the person did not choose", () => {
    const notChosen = endReasons.filter((reason) => reason !== "signed-out" && reason !== "replaced");
    assert.equal(notChosen.length, 12);
    for (const reason of notChosen) assert.equal(unannounced(reason), false, reason);
  });
});

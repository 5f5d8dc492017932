// What a session holds: its record in the ledger (the auth with its token, whole whatever its length, read back as it
// was written) and its cookie, which carries only the record's id and the next page's notice. A request writes its
// record back once, and only a record it holds; a token the portal could not send back is refused; a write after the
// cookie was dropped keeps it again.
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import {
  type Auth,
  begin,
  clear,
  discard,
  get,
  MAX_TOKEN_CHARACTERS,
  mayWrite,
  readOnlySession,
  sendableToken,
  set,
  storeAuth,
} from "#server/session/fields.ts";
import { type SessionApp, seededRecord, startSessionApp } from "#tests/support/session-app.ts";

let session: SessionApp;

// One describe holds the file's hooks: they run for its tests only, even where test files share a process.
describe("a session's fields", () => {
  before(async () => {
    session = await startSessionApp();
  });
  after(() => session.close());
  beforeEach(() => session.seed(undefined));

  const vera: Auth = {
    stage: "pending",
    site: "vendor",
    userName: "vera",
    loginMessage: "Success",
    token: "token-of-vera",
  };

  describe("the auth the record holds", () => {
    it("reads back as it was stored, at the next request, and request.auth is kept in step at once", async () => {
      session.seed({});
      const stored = await session.run((r) => {
        storeAuth(r, vera);
        return r.auth;
      });
      assert.deepEqual(stored.result, vera);
      assert.deepEqual(stored.held.auth, vera);
      assert.deepEqual((await session.run((r) => r.auth)).result, vera);
    });

    it("keeps a token of any length the portal takes whole, in the record: the cookie carries the record's id alone", async () => {
      const sid = session.seed({});
      const token = "t".repeat(MAX_TOKEN_CHARACTERS);
      const stored = await session.run((r) => storeAuth(r, { ...vera, token }));
      assert.equal(stored.held.auth?.token, token);
      assert.deepEqual([stored.recordWritten, stored.cookieWritten], [true, false], "the cookie is not written");
      assert.equal((await session.run((r) => r.auth?.token)).result, token);
      assert.equal(stored.sid, sid);
    });

    it("is none, and nothing is stored, in a request that holds no record", async () => {
      const stored = await session.run((r) => {
        storeAuth(r, vera);
        return r.auth;
      });
      assert.deepEqual([stored.result, stored.written], [undefined, false]);
    });

    it("is none for a record that ended: the ending is read as it arrives", async () => {
      const sid = session.seed({}) as string;
      session.ledger.endHere(sid, { at: 1, reason: "signed-out" });
      assert.equal((await session.run((r) => r.auth)).result, undefined);
    });
  });

  describe("get and set", () => {
    it("set writes one field of the record and get reads it back; undefined removes it; the cookie is not written", async () => {
      session.seed({});
      const written = await session.run((r) => {
        set(r, "codeSentAt", 4);
        set(r, "seen", 5);
        return get(r, "codeSentAt");
      });
      assert.deepEqual([written.result, written.held], [4, { ...seededRecord, codeSentAt: 4, seen: 5 }]);
      assert.equal(written.cookieWritten, false);
      const removed = await session.run((r) => set(r, "codeSentAt", undefined));
      assert.deepEqual(removed.held, { ...seededRecord, seen: 5 });
    });

    it("a record's field in a request that holds no record is written nowhere: set answers false", async () => {
      const wrote = await session.run((r) => ({ wrote: set(r, "seen", 5), seen: get(r, "seen") }));
      assert.deepEqual(wrote.result, { wrote: false, seen: undefined });
      assert.equal(wrote.written, false);
      session.seedCookie({ sid: "an-id-the-ledger-does-not-hold" });
      assert.deepEqual((await session.run((r) => set(r, "seen", 5))).result, false, "nor for an unknown id");
      assert.equal(session.ledger.read("an-id-the-ledger-does-not-hold"), undefined);
    });

    it("the notice is the cookie's: written there, never in the record, with or without a record", async () => {
      const sid = session.seed({}) as string;
      const noted = await session.run((r) => set(r, "flash", { error: "Kept for the page" }));
      assert.deepEqual([noted.recordWritten, noted.cookieWritten], [false, true]);
      assert.deepEqual(noted.held.flash, { error: "Kept for the page" });
      assert.equal("flash" in (session.ledger.read(sid) ?? {}), false);
      session.seed(undefined);
      const anonymous = await session.run((r) => set(r, "flash", { ended: "idle" }));
      assert.deepEqual([anonymous.result, anonymous.held], [true, { flash: { ended: "idle" } }]);
    });

    it("the record is written back to the ledger once, as the request answers, not at each write", async () => {
      const sid = session.seed({}) as string;
      const seen = await session.run((r) => {
        set(r, "seen", 6);
        const during = session.ledger.read(sid)?.seen;
        set(r, "codeSentAt", 7);
        return during;
      });
      assert.equal(seen.result, seededRecord.seen, "the ledger still held the record as it was");
      assert.deepEqual([seen.held.seen, seen.held.codeSentAt], [6, 7]);
    });

    it("a write after the cookie was dropped in the same request keeps the cookie again, holding the new write", async () => {
      session.seed({ flash: { error: "x" } });
      const again = await session.run((r) => {
        r.session.delete();
        set(r, "flash", { ended: "idle" });
      });
      assert.equal(again.cookieWritten, true);
      assert.deepEqual(again.held.flash, { ended: "idle" });
    });
  });

  describe("a session's beginning and its end in a request", () => {
    it("begin: a new record under its id, the request holds it at once, and the cookie carries its id alone", async () => {
      session.seed({ flash: { ended: "idle" } });
      const value = { ...seededRecord, auth: vera };
      const begun = await session.run((r) => {
        begin(r, "a-new-session", value);
        return { sid: get(r, "sid"), auth: r.auth, flash: get(r, "flash") };
      });
      assert.deepEqual(begun.result, { sid: "a-new-session", auth: vera, flash: undefined });
      assert.equal(begun.sid, "a-new-session");
      assert.deepEqual(begun.held, value, "the notice is spent");
      assert.deepEqual(session.ledger.read("a-new-session"), value);
    });

    it("clear: the request holds no record, and the cookie is emptied; the record is the ledger's to end", async () => {
      const sid = session.seed({ flash: { ended: "idle" } }) as string;
      const cleared = await session.run((r) => {
        clear(r);
        return { record: r.record, seen: get(r, "seen"), wrote: set(r, "seen", 9) };
      });
      assert.deepEqual(cleared.result, { record: undefined, seen: undefined, wrote: false });
      assert.deepEqual([cleared.cookieWritten, cleared.sid, cleared.held], [true, undefined, {}]);
      assert.deepEqual(session.ledger.read(sid), seededRecord, "the record is left as it was");
    });

    it("discard: the browser drops the cookie", async () => {
      session.seed({});
      const dropped = await session.run((r) => discard(r));
      assert.equal(dropped.cookieWritten, true);
      assert.equal(session.cookie(), undefined);
    });
  });

  describe("a request that may only read the session", () => {
    it("writes nothing: no field, no notice, no beginning, no clearing, no dropping, and a cookie of an older key is not sealed again", async () => {
      const sid = session.seed({ seen: 1, flash: { ended: "idle" } });
      const read = await session.run((r) => {
        r.session.changed = true; // as the library marks a cookie of an older key
        readOnlySession(r);
        const wrote = [set(r, "seen", 2), set(r, "flash", undefined)];
        storeAuth(r, vera);
        begin(r, "another-session", seededRecord);
        clear(r);
        discard(r);
        return { wrote, may: mayWrite(r) };
      });
      assert.deepEqual(read.result, { wrote: [false, false], may: false });
      assert.equal(read.written, false, "the answer writes neither the record nor the cookie");
      assert.deepEqual(read.held, { ...seededRecord, seen: 1, flash: { ended: "idle" } });
      assert.equal(read.sid, sid);
      assert.equal(session.ledger.read("another-session"), undefined);
      const next = await session.run((r) => ({ may: mayWrite(r), wrote: set(r, "seen", 3) }));
      assert.deepEqual(next.result, { may: true, wrote: true }, "the next request may");
    });
  });

  describe("tokens the portal keeps", () => {
    it("a token the portal can send back is visible ASCII without a space", () => {
      assert.equal(sendableToken("eyJhbGciOi.J9-_~!#$%&'*+/=?^`{|}"), true);
      for (const refused of ["", "with space", "tab\there", "line\nbreak", "caf\u00e9", "\u0000", "del\u007f"])
        assert.equal(sendableToken(refused), false, JSON.stringify(refused));
    });
  });
});

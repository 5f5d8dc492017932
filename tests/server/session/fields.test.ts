// What a session holds: its record in the ledger (the auth with its token, whole whatever its length, read back as it
// was written) and its cookie, which carries only the record's id and the next page's notice. A request writes its
// record back once, and only a record it holds; a token the portal could not send back is refused; a write after the
// cookie was dropped keeps it again.
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { setTimeout } from "node:timers/promises";
import { happyUpstream } from "#harness/fake-upstream.ts";
import type { PortalClient } from "#harness/portal-client.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
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
import { type PortalOnFake, portalOnFake } from "#tests/support/portal-on-fake.ts";
import { type SessionApp, seededRecord, startSessionApp } from "#tests/support/session-app.ts";
import { layoutTexts } from "#web/texts/layout.ts";
import { mfaTexts } from "#web/texts/mfa.ts";

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

// A session whose password expired is one state everywhere: past its MFA step it has only the change-password form,
// the sign-in's own step. Every page, that form too, frames it as signed out (no name, no Sign out); no other page
// sends a visit upstream with its token, and a section page sends it to its form.
describe("a session whose password expired, past its MFA step", () => {
  let fake: PortalOnFake;
  let carol: PortalClient;
  const expiredUpstream = happyUpstream({ message: "Password Expired" });

  before(async () => {
    fake = await portalOnFake(expiredUpstream);
    carol = await signIn(fake.app, accounts.alice, fake.code);
  });
  after(() => fake.close());

  /** Visits sent upstream so far, once any queued by the pages before have had time to leave. */
  async function visitsSent(): Promise<string[]> {
    await setTimeout(150);
    return fake.upstream.callsTo(/^\/web\/track$/).map((call) => JSON.parse(call.body).page as string);
  }

  /** The header's account and its Sign out form (the idle warning's "Sign out now" is not the frame's). */
  const framedSignedIn = (html: string) => html.includes('class="sign-out"') || html.includes(layoutTexts.signedInAs);

  for (const path of ["/register", "/videos/1", "/approval/dashboard", "/uspto/login", "/login"]) {
    it(`${path} is framed as signed out, and the visit is not sent upstream with her token`, async () => {
      const before = (await visitsSent()).length;
      const page = await carol.get(path);
      assert.equal(page.status, 200, page.text.slice(0, 200));
      assert.equal(framedSignedIn(page.text), false, "no signed-in header, no Sign out");
      assert.equal((await visitsSent()).length, before, "no visit tracked");
    });
  }

  it("/tax-bridge/login and / send her to her form, as a section page does", async () => {
    for (const path of ["/", "/tax-bridge/login", "/client/home"]) {
      const page = await carol.get(path);
      assert.equal(page.status, 302, path);
      assert.equal(page.headers.location, "/mfa", path);
    }
  });

  it("her change-password form is the sign-in's own step: unframed, with 'Use another account'; its visit is sent", async () => {
    const form = await carol.get("/mfa");
    assert.equal(form.status, 200);
    assert.match(form.text, /data-island="change-password"/);
    assert.equal(framedSignedIn(form.text), false, "no signed-in header, no Sign out");
    assert.ok(form.text.includes(layoutTexts.idleWarning), "its idle clock runs, and the warning says so");
    assert.ok(form.text.includes(mfaTexts.useAnotherAccount), "the way out of the sign-in");
    assert.equal((await visitsSent()).at(-1), "/mfa", "requirements 4.8: her one page's visit");
  });

  it("a fully signed-in session on the same pages is framed signed in, and its visits are sent", async () => {
    const signedIn = await portalOnFake(happyUpstream());
    try {
      const alice = await signIn(signedIn.app, accounts.alice, signedIn.code);
      const page = await alice.get("/register");
      assert.equal(framedSignedIn(page.text), true);
      await setTimeout(150);
      assert.deepEqual(
        signedIn.upstream.callsTo(/^\/web\/track$/).map((call) => JSON.parse(call.body).page),
        ["/register"],
      );
    } finally {
      await signedIn.close();
    }
  });
});

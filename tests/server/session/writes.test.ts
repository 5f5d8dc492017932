// The session's named writes, read back from the session as the next request finds it (its record in the ledger, the
// notice in its cookie): seen, the previous page, the permissions and a sent code, the password test and change
// (requirements 4.4), the result of ending other sessions, and the sign-in page's notice.
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import type { Auth } from "#server/session/fields.ts";
import { readOnlySession, storeAuth } from "#server/session/fields.ts";
import {
  cachePermissions,
  forgetPasswordTest,
  keepFormAnswer,
  markSeen,
  noteEndResult,
  PASSWORD_TEST_VALID_MS,
  passwordChanged,
  recordPasswordTest,
  rememberCodeSent,
  rememberPage,
  spendPasswordTest,
  takeEndResult,
  takeFlash,
  takeFormAnswer,
  untoldSignInVouched,
} from "#server/session/writes.ts";
import { MINUTE } from "#tests/support/clocked-portal.ts";
import { noPermissions, permissionsWith } from "#tests/support/permissions.ts";
import { type SessionApp, seededRecord, startSessionApp } from "#tests/support/session-app.ts";

let session: SessionApp;

// One describe holds the file's hooks: they run for its tests only, even where test files share a process.
describe("the session's named writes", () => {
  before(async () => {
    session = await startSessionApp();
  });
  after(() => session.close());
  // A session's record in every test, unless the test seeds its own.
  beforeEach(() => session.seed({}));

  const T = 1_700_000_000_000;

  describe("seen", () => {
    it("markSeen restarts the idle time at the time given, and leaves the rest of the session as it was", async () => {
      session.seed({ born: T, seen: T, taxBridge: true });
      const { held } = await session.run((r) => markSeen(r, T + 7 * MINUTE));
      assert.deepEqual(held, { ...seededRecord, born: T, seen: T + 7 * MINUTE, taxBridge: true });
    });

    it("markSeen writes the record's seen when it is a minute old, or to the second when the record is written anyway", async () => {
      session.seed({ born: T, seen: T });
      assert.equal((await session.run((r) => markSeen(r, T + 30_000))).written, false, "within the minute");
      const written = await session.run((r) => {
        rememberCodeSent(r, T + 30_000);
        markSeen(r, T + 30_000);
      });
      assert.equal(written.held.seen, T + 30_000, "another write writes the record anyway");
      assert.equal(written.cookieWritten, false, "and never the cookie");
    });

    it("markSeen writes seen when a new minute has begun since it was, however little time passed", async () => {
      const minute = Math.ceil(T / MINUTE) * MINUTE;
      session.seed({ born: T, seen: minute - 1_000 });
      assert.equal((await session.run((r) => markSeen(r, minute + 1_000))).held.seen, minute + 1_000);
    });
  });

  describe("the previous page (requirements 4.8)", () => {
    it("is kept in the record, the latest one counting, and the cookie is not written", async () => {
      await session.run((r) => rememberPage(r, "/client/home"));
      const next = await session.run((r) => rememberPage(r, "/client/inbox"));
      assert.equal(next.held.previousPage, "/client/inbox");
      assert.deepEqual([next.recordWritten, next.cookieWritten], [true, false]);
    });
  });

  describe("permissions and a sent code", () => {
    it("the permissions are kept with the time they were fetched, replacing the ones before", async () => {
      const info = permissionsWith({ vipTier: "2", clientServices: ["60542"] });
      await session.run((r) => cachePermissions(r, noPermissions, T));
      const { held } = await session.run((r) => cachePermissions(r, info, T + MINUTE));
      assert.deepEqual(held.perms, { info, at: T + MINUTE });
    });

    it("a sent code's time is kept, the latest one counting", async () => {
      await session.run((r) => rememberCodeSent(r, T));
      assert.equal((await session.run((r) => rememberCodeSent(r, T + 20_000))).held.codeSentAt, T + 20_000);
    });
  });

  describe("the password test (requirements 4.4)", () => {
    it("a passed test is written at most once a minute: a repeat within the minute keeps the earlier time", async () => {
      await session.run((r) => recordPasswordTest(r, T));
      const repeat = await session.run((r) => recordPasswordTest(r, T + MINUTE - 1));
      assert.deepEqual([repeat.written, repeat.held.passwordTested], [false, T]);
      const later = await session.run((r) => recordPasswordTest(r, T + MINUTE));
      assert.equal(later.held.passwordTested, T + MINUTE);
    });

    it("allows the change call for 5 minutes, once: a second change call finds no test", async () => {
      assert.equal(PASSWORD_TEST_VALID_MS, 5 * MINUTE);
      session.seed({ passwordTested: T });
      const spent = await session.run((r) => spendPasswordTest(r, T + PASSWORD_TEST_VALID_MS));
      assert.equal(spent.result, T, "at 5 minutes exactly, still valid");
      assert.equal(spent.held.passwordTested, undefined);
      assert.equal((await session.run((r) => spendPasswordTest(r, T + 1))).result, undefined, "spent once");
    });

    it("a test older than 5 minutes allows nothing, and is used up all the same", async () => {
      session.seed({ passwordTested: T });
      const late = await session.run((r) => spendPasswordTest(r, T + PASSWORD_TEST_VALID_MS + 1));
      assert.deepEqual([late.result, late.held.passwordTested], [undefined, undefined]);
    });

    it("without a passed test there is nothing to spend or forget, and the session is not written", async () => {
      session.seed({ seen: T });
      const spent = await session.run((r) => spendPasswordTest(r, T));
      assert.deepEqual([spent.result, spent.written], [undefined, false]);
      assert.equal((await session.run((r) => forgetPasswordTest(r))).written, false);
    });

    it("a forgotten test allows no change call", async () => {
      session.seed({ passwordTested: T });
      assert.equal((await session.run((r) => forgetPasswordTest(r))).held.passwordTested, undefined);
      assert.equal((await session.run((r) => spendPasswordTest(r, T + 1))).result, undefined);
    });
  });

  describe("a changed password (requirements 4.4)", () => {
    const expired: Auth = {
      stage: "signed-in",
      site: "client",
      userName: "paula",
      loginMessage: "Password Expired",
      token: "token-of-paula",
      company: "ACME",
    };

    it("ends the expired-password state and uses up the passed test; the rest of the auth stays", async () => {
      await session.run((r) => storeAuth(r, expired));
      await session.run((r) => recordPasswordTest(r, T));
      const changed = await session.run((r) => {
        passwordChanged(r);
        return r.auth;
      });
      assert.deepEqual(changed.result, { ...expired, loginMessage: "Success" }, "request.auth is kept in step");
      assert.deepEqual(changed.held.auth, { ...expired, loginMessage: "Success" });
      assert.equal(changed.held.passwordTested, undefined);
    });

    it("leaves a session that was not expired signed in as it was", async () => {
      const signedIn: Auth = { ...expired, loginMessage: "Success" };
      await session.run((r) => storeAuth(r, signedIn));
      const changed = await session.run((r) => passwordChanged(r));
      assert.deepEqual(changed.held.auth, signedIn);
    });
  });

  describe("a sign-in whose message the portal did not know", () => {
    const untold: Auth = {
      stage: "signed-in",
      site: "vendor",
      userName: "vera",
      loginMessage: "Success",
      token: "token-of-vera",
      untold: true,
    };

    it("is kept untold until the permissions vouch for it, then is a session like any", async () => {
      await session.run((r) => storeAuth(r, untold));
      const { untold: _dropped, ...told } = untold;
      assert.deepEqual((await session.run((r) => r.auth)).result, untold, "read back untold");
      const vouched = await session.run((r) => {
        untoldSignInVouched(r);
        return r.auth;
      });
      assert.deepEqual(vouched.result, told, "request.auth is kept in step");
      assert.deepEqual(vouched.held.auth, told);
      assert.equal((await session.run((r) => untoldSignInVouched(r))).written, false, "a told one is left as it is");
    });
  });

  describe("the result of ending other sessions", () => {
    it("is read once, by the page it leads back to: a reload finds none", async () => {
      await session.run((r) => noteEndResult(r, "ended", 2));
      const first = await session.run((r) => takeEndResult(r));
      assert.deepEqual([first.result, first.held.endResult], [{ outcome: "ended", count: 2 }, undefined]);
      assert.equal((await session.run((r) => takeEndResult(r))).result, undefined);
    });

    it("is neither shown nor spent by a request that may only read the session", async () => {
      session.seed({ endResult: { outcome: "none" } });
      const read = await session.run((r) => {
        readOnlySession(r);
        return takeEndResult(r);
      });
      assert.deepEqual([read.result, read.written], [undefined, false]);
      assert.deepEqual((await session.run((r) => takeEndResult(r))).result, { outcome: "none" });
    });
  });

  describe("the sign-in page's notice", () => {
    it("is taken once: the next page finds none", async () => {
      session.seed({ flash: { ended: "idle", pathname: "/client/home" } });
      const first = await session.run((r) => takeFlash(r));
      assert.deepEqual(first.result, { ended: "idle", pathname: "/client/home" });
      assert.equal(first.held.flash, undefined);
      assert.equal((await session.run((r) => takeFlash(r))).result, undefined);
    });

    it("is neither shown nor spent by a request that may only read the session: it waits for the next", async () => {
      session.seed({ flash: { ended: "idle" } });
      const read = await session.run((r) => {
        readOnlySession(r);
        return takeFlash(r);
      });
      assert.deepEqual([read.result, read.written], [undefined, false]);
      assert.deepEqual((await session.run((r) => takeFlash(r))).result, { ended: "idle" });
    });
  });

  describe("a form's answer, for the page its 303 leads to", () => {
    const answer = {
      form: "login",
      site: "client",
      note: { kind: "error", text: "Invalid Login" },
      typed: { shortName: "ACME", userName: "alice", remember: false },
    } as const;

    it("is kept beside the notice, and read once: a reload finds none, and the notice stays for the sign-in page", async () => {
      session.seed({ flash: { ended: "idle" } });
      await session.run((r) => keepFormAnswer(r, answer));
      const first = await session.run((r) => takeFormAnswer(r));
      assert.deepEqual(first.result, answer);
      assert.deepEqual(first.held.flash, { ended: "idle" }, "the notice is not spent with it");
      assert.equal((await session.run((r) => takeFormAnswer(r))).result, undefined, "a reload shows it no more");
      assert.deepEqual((await session.run((r) => takeFlash(r))).result, { ended: "idle" });
    });

    it("alone in the flash, leaves no flash once read; without one, nothing is written", async () => {
      session.seed({ born: T });
      await session.run((r) => keepFormAnswer(r, answer));
      const read = await session.run((r) => takeFormAnswer(r));
      assert.deepEqual(read.held, { ...seededRecord, born: T });
      const none = await session.run((r) => takeFormAnswer(r));
      assert.deepEqual([none.result, none.written], [undefined, false]);
    });

    it("is neither shown nor spent by a request that may only read the session", async () => {
      session.seed({ flash: { form: answer } });
      const read = await session.run((r) => {
        readOnlySession(r);
        return takeFormAnswer(r);
      });
      assert.deepEqual([read.result, read.written], [undefined, false]);
      assert.deepEqual((await session.run((r) => takeFormAnswer(r))).result, answer);
    });
  });
});

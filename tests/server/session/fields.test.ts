// What the session cookie holds: the auth with its token (packed when large, so the cookie fits), read back as it was
// written; a token the portal could not send back is refused; a write after the cookie was dropped keeps it again.
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import {
  type Auth,
  clear,
  discard,
  get,
  mayWrite,
  readAuth,
  readOnlySession,
  sendableToken,
  set,
  storeAuth,
} from "#server/session/fields.ts";
import { PACK_FROM_CHARACTERS } from "#server/token-pack.ts";
import { type SessionApp, startSessionApp } from "#tests/support/session-app.ts";

let session: SessionApp;
before(async () => {
  session = await startSessionApp();
});
after(() => session.close());
beforeEach(() => session.seed(undefined));

const alice: Auth = {
  stage: "signed-in",
  site: "client",
  userName: "alice",
  loginMessage: "Success",
  token: "token-of-alice",
  company: "ACME",
};

/** A JWT-like token of about `size` characters: base64url segments around JSON that repeats, as real claims do. */
function jwtLike(size: number): string {
  const claims = { sub: "alice", scope: Array.from({ length: size / 40 }, (_, i) => `permission:${i}`) };
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "RS256", typ: "JWT" })}.${part(claims)}.${"s".repeat(342)}`;
}

describe("the auth the cookie holds", () => {
  it("reads back as it was stored, at the next request, and request.auth is kept in step at once", async () => {
    const stored = await session.run((r) => {
      storeAuth(r, alice);
      return r.auth;
    });
    assert.deepEqual(stored.result, alice);
    assert.deepEqual((await session.run((r) => readAuth(r))).result, alice);
  });

  it("a vendor's or a link sign-in's auth has no company, not an empty one", async () => {
    const vera: Auth = { stage: "pending", site: "vendor", userName: "vera", loginMessage: "Success", token: "t" };
    await session.run((r) => storeAuth(r, { ...vera, company: "" }));
    const read = (await session.run((r) => readAuth(r))).result;
    assert.deepEqual(read, vera);
    assert.equal(read && "company" in read, false);
  });

  it("a short token is kept as it is; a large JWT-like one packed smaller, and read back byte for byte", async () => {
    await session.run((r) => storeAuth(r, alice));
    const short = (await session.run(() => undefined)).held.auth;
    assert.ok(short && "token" in short && !("packedToken" in short));
    assert.equal(short.token, alice.token);

    const large = jwtLike(4_000);
    assert.ok(large.length >= PACK_FROM_CHARACTERS);
    const stored = await session.run((r) => storeAuth(r, { ...alice, token: large }));
    const held = stored.held.auth;
    assert.ok(held && "packedToken" in held && !("token" in held), "the cookie holds the packed form only");
    assert.ok(held.packedToken.length < large.length / 2, `${held.packedToken.length} of ${large.length}`);
    assert.equal((await session.run((r) => readAuth(r)))?.result?.token, large);
  });

  it("a stored token that cannot be unpacked is no auth at all", async () => {
    session.seed({
      auth: {
        stage: "signed-in",
        site: "client",
        userName: "alice",
        loginMessage: "Success",
        packedToken: "bm90IGJyb3RsaQ==",
      },
    });
    assert.equal((await session.run((r) => readAuth(r))).result, undefined);
  });

  it("a cookie without an auth is no auth", async () => {
    session.seed({ seen: 1 });
    assert.equal((await session.run((r) => readAuth(r))).result, undefined);
  });
});

describe("get and set", () => {
  it("set writes one field and get reads it back; undefined removes it", async () => {
    const written = await session.run((r) => {
      set(r, "codeSentAt", 4);
      set(r, "seen", 5);
      return get(r, "codeSentAt");
    });
    assert.deepEqual([written.result, written.held], [4, { codeSentAt: 4, seen: 5 }]);
    assert.deepEqual((await session.run((r) => set(r, "seen", undefined))).held, { codeSentAt: 4 });
  });

  it("a write after the cookie was dropped in the same request keeps the cookie again, holding the new write", async () => {
    session.seed({ seen: 1, codeSentAt: 4 });
    const again = await session.run((r) => {
      r.session.delete();
      set(r, "sid", "a-new-session");
    });
    assert.equal(again.written, true);
    assert.equal(again.held.sid, "a-new-session");
  });
});

describe("a request that may only read the session", () => {
  it("writes nothing: no field, no clearing, no dropping, and a cookie of an older key is not sealed again", async () => {
    session.seed({ seen: 1, sid: "the-session" });
    const read = await session.run((r) => {
      r.session.changed = true; // as the library marks a cookie of an older key
      readOnlySession(r);
      const wrote = set(r, "seen", 2);
      clear(r);
      discard(r);
      return { wrote, may: mayWrite(r), seen: get(r, "seen") };
    });
    assert.deepEqual(read.result, { wrote: false, may: false, seen: 1 });
    assert.equal(read.written, false, "the answer sets no cookie");
    assert.deepEqual(read.held, { seen: 1, sid: "the-session" });
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

// The session cookie's seal and the per-request session: what the cookie holds comes back only under one of the keys
// and only within its lifetime; what several requests share is never changed by one of them.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { Session } from "#server/session.ts";
import { cookieOpener, seal } from "#server/session-cookie.ts";

const DAY = 86_400;
const now = Date.UTC(2026, 10, 21, 12);
const [first, second, other] = [randomBytes(32), randomBytes(32), randomBytes(32)];

describe("the session cookie", () => {
  it("opens to what was sealed, under the first key, and nothing in it needs escaping in a cookie", () => {
    const value = seal({ sid: "s-1", seen: 5 }, first, now);
    assert.match(value, /^[\w-]+\.[\w-]+$/);
    assert.deepEqual(cookieOpener([first, second], DAY)(value, now), {
      data: { sid: "s-1", seen: 5 },
      at: now / 1000,
      rotated: false,
    });
  });

  it("sealed twice, the same session reads differently (a fresh IV each time)", () => {
    assert.notEqual(seal({ sid: "s-1" }, first, now), seal({ sid: "s-1" }, first, now));
  });

  it("sealed under a previous key, it opens and says so, so that the answer re-issues it", () => {
    const value = seal({ sid: "s-2" }, second, now);
    assert.equal(cookieOpener([first, second], DAY)(value, now)?.rotated, true);
  });

  it("is no session under a key that is not configured, or once older than the session's lifetime", () => {
    const value = seal({ sid: "s-3" }, other, now);
    assert.equal(cookieOpener([first, second], DAY)(value, now), undefined);
    const open = cookieOpener([first], DAY);
    const sealed = seal({ sid: "s-4" }, first, now);
    assert.ok(open(sealed, now + (DAY - 1) * 1000), "within its lifetime");
    assert.equal(open(sealed, now + DAY * 1000), undefined, "at its end, even when opened before");
  });

  it("is no session when cut, padded, or not a sealed value at all", () => {
    const value = seal({ sid: "s-5" }, first, now);
    const open = cookieOpener([first], DAY);
    for (const bad of [value.slice(0, -1), `${value}.x`, value.replace(".", ""), "", ".", "a.b", "{}"])
      assert.equal(open(bad, now), undefined, JSON.stringify(bad));
  });

  it("opened once, a changed copy with the same IV is no session: what is remembered is found only by the whole value", () => {
    const value = seal({ sid: "s-6" }, first, now);
    const open = cookieOpener([first], DAY);
    assert.equal(open(value, now)?.data.sid, "s-6");
    const flipped = `${value[0] === "A" ? "B" : "A"}${value.slice(1)}`;
    assert.equal(open(flipped, now), undefined);
    assert.equal(open(value, now)?.data.sid, "s-6");
  });

  it("opened once, its contents are frozen: requests that share it cannot change it", () => {
    const opened = cookieOpener([first], DAY)(seal({ flash: { error: "x" } }, first, now), now);
    assert.ok(opened && Object.isFrozen(opened.data) && Object.isFrozen(opened.data.flash));
  });
});

describe("one request's session", () => {
  it("writes to a copy of its own and is marked changed; the shared contents stay as they were", () => {
    const shared = Object.freeze({ sid: "s-6", seen: 1 });
    const session = new Session(shared);
    assert.equal(session.changed, false);
    session.set("seen", 2);
    session.set("sid", undefined);
    assert.equal(session.changed, true);
    assert.deepEqual(session.data(), { seen: 2 });
    assert.deepEqual(shared, { sid: "s-6", seen: 1 });
  });

  it("regenerated, keeps only the fields named", () => {
    const session = new Session(Object.freeze({ sid: "s-7", taxBridge: true, seen: 3 }));
    session.regenerate(["taxBridge"]);
    assert.deepEqual(session.data(), { taxBridge: true });
    assert.equal(session.changed, true);
  });
});

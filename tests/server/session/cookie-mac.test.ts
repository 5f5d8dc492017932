// The MAC the small cookies beside the session carry: 22 characters, matching only what it was made for, under a key
// of its own per purpose, and still matching under an older session key (rotation).
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { CookieMac } from "#server/session/cookie-mac.ts";

const [oldKey, newKey] = [randomBytes(32), randomBytes(32)] as [Buffer, Buffer];

describe("a cookie's MAC", () => {
  it("is 22 base64url characters, and matches the text it was made of and no other", () => {
    const mac = new CookieMac([newKey], "a purpose");
    const value = mac.of("sid-1");
    assert.match(String(value), /^[A-Za-z0-9_-]{22}$/);
    assert.equal(mac.matches(value, "sid-1"), true);
    assert.equal(mac.matches(value, "sid-2"), false);
    assert.equal(mac.matches(undefined, "sid-1"), false, "no cookie matches nothing");
  });

  it("made for one purpose matches for no other: each has a key of its own", () => {
    const value = new CookieMac([newKey], "a purpose").of("sid-1");
    assert.equal(new CookieMac([newKey], "another purpose").matches(value, "sid-1"), false);
  });

  it("refuses a value the browser made up: garbage, the wrong length, or a MAC under another key", () => {
    const mac = new CookieMac([newKey], "a purpose");
    const forged = ["", "sid-1", "A".repeat(22), `${mac.of("sid-1")}A`, "!".repeat(22)];
    for (const value of forged) assert.equal(mac.matches(value, "sid-1"), false, value);
    assert.equal(mac.matches(new CookieMac([randomBytes(32)], "a purpose").of("sid-1"), "sid-1"), false);
  });

  it("under rotation: the first key writes, an older key's value still matches, and a removed key's no longer does", () => {
    const before = new CookieMac([oldKey], "a purpose").of("sid-1");
    const rotated = new CookieMac([newKey, oldKey], "a purpose");
    assert.equal(rotated.matches(before, "sid-1"), true);
    assert.equal(rotated.of("sid-1"), new CookieMac([newKey], "a purpose").of("sid-1"));
    assert.equal(new CookieMac([newKey], "a purpose").matches(before, "sid-1"), false);
  });
});

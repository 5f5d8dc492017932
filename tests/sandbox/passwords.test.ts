// The sandbox's handling of passwords and secrets (sandbox/passwords.ts): scrypt hashes, the password rules,
// constant-time comparisons and the tokens it hands out.
import assert from "node:assert/strict";
import { randomBytes, scryptSync } from "node:crypto";
import { describe, test } from "node:test";
import {
  hashPassword,
  hashToken,
  meetsPasswordRules,
  randomToken,
  secretsEqual,
  TEST_COST,
  verifyPassword,
} from "#sandbox/passwords.ts";

describe("password hashes", () => {
  test("a hash is scrypt with its cost, a 16-byte salt and a 64-byte key, and a fresh salt each time", async () => {
    const [first, second] = await Promise.all([hashPassword("Portal-Demo-2026!"), hashPassword("Portal-Demo-2026!")]);
    assert.match(first, /^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{86}$/);
    assert.notEqual(first, second);
    assert.ok(!first.includes("Portal-Demo-2026!"));
  });

  test("the right password matches its hash; another, or the same in another case, does not", async () => {
    const stored = await hashPassword("Portal-Demo-2026!");
    assert.equal(await verifyPassword("Portal-Demo-2026!", stored), true);
    assert.equal(await verifyPassword("portal-demo-2026!", stored), false);
    assert.equal(await verifyPassword("Portal-Demo-2026", stored), false);
    assert.equal(await verifyPassword("", stored), false);
  });

  test("no hash, or one in another scheme or incomplete, matches no password", async () => {
    assert.equal(await verifyPassword("anything", undefined), false);
    for (const stored of ["", "Portal-Demo-2026!", "bcrypt$2b$10$abc", "scrypt$16384$8$1$c2FsdA"]) {
      assert.equal(await verifyPassword("Portal-Demo-2026!", stored), false, stored);
    }
  });

  test("a hash at the tests' cost says so, and is checked at it", async () => {
    const stored = await hashPassword("Portal-Demo-2026!", TEST_COST);
    assert.match(stored, /^scrypt\$1024\$8\$1\$[\w-]{22}\$[\w-]{86}$/);
    assert.equal(await verifyPassword("Portal-Demo-2026!", stored), true);
    assert.equal(await verifyPassword("Portal-Demo-2027!", stored), false);
  });

  test("a hash stored at another cost is checked at that cost", async () => {
    const salt = randomBytes(16);
    const key = scryptSync("Cheaper-Hash-2026!", salt, 32, { N: 1024, r: 8, p: 1 });
    const stored = ["scrypt", 1024, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
    assert.equal(await verifyPassword("Cheaper-Hash-2026!", stored), true);
    assert.equal(await verifyPassword("Cheaper-Hash-2027!", stored), false);
  });
});

describe("the password rules", () => {
  test("a password needs 12 characters, a lower and an upper case letter, a digit and a special character", () => {
    assert.equal(meetsPasswordRules("Portal-Demo-2026!"), true);
    assert.equal(meetsPasswordRules("Abcdefgh12!x"), true, "exactly 12 characters");
    for (const weak of ["Abcdefg12!x", "abcdefgh123!", "ABCDEFGH123!", "Abcdefghijk!", "Abcdefgh1234", ""]) {
      assert.equal(meetsPasswordRules(weak), false, weak);
    }
  });
});

describe("secrets and tokens", () => {
  test("two secrets are equal only when they are the same, whatever their lengths", () => {
    assert.equal(secretsEqual("123456", "123456"), true);
    assert.equal(secretsEqual("123456", "123457"), false);
    assert.equal(secretsEqual("123456", "1234567"), false);
    assert.equal(secretsEqual("", ""), true);
    assert.equal(secretsEqual("", "0"), false);
  });

  test("a token is stored as the hex of its SHA-256: the same token always, another token never, the same", () => {
    const token = randomToken();
    assert.match(hashToken(token), /^[0-9a-f]{64}$/);
    assert.equal(hashToken(token), hashToken(token));
    assert.notEqual(hashToken(token), hashToken(`${token}x`));
    assert.equal(hashToken("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  test("a new token is 32 random bytes in base64url, never the same twice", () => {
    const tokens = new Set(Array.from({ length: 100 }, randomToken));
    assert.equal(tokens.size, 100);
    for (const token of tokens) assert.match(token, /^[A-Za-z0-9_-]{43}$/);
  });
});

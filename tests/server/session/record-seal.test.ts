// server/session/record-seal.ts: a record at rest in Redis, sealed as the session cookie is under the session
// keys: sealed with the first key, opened with any key of the rotation, never readable in the seal, and a seal that
// was tampered with opens to nothing.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { jwtLikeToken } from "#harness/fake-upstream.ts";
import { recordSeal } from "#server/session/record-seal.ts";

const [oldKey, newKey, otherKey] = [randomBytes(32), randomBytes(32), randomBytes(32)] as [Buffer, Buffer, Buffer];
/** Where the sealed text is kept: a record's id. */
const BOUND = "3f1d2c4e-0000-4000-8000-000000000001";
const tokens = ["token-of-alice", "t", jwtLikeToken(4_000), "x".repeat(8_192), "eyJhbGciOi.J9-_~!#$%&'*+/=?^`{|}"];

describe("the ledger's seal", () => {
  it("opens only where it was sealed: a seal moved to another record's id opens to nothing", () => {
    const seal = recordSeal([newKey]);
    const sealed = seal.seal("token-of-alice", BOUND);
    assert.equal(seal.open(sealed, BOUND), "token-of-alice");
    assert.equal(seal.open(sealed, "3f1d2c4e-0000-4000-8000-000000000002"), undefined, "another id");
    assert.equal(seal.open(sealed, `ended\n${BOUND}`), undefined, "an ending's place");
  });

  it("opens to the token it sealed, byte for byte, whatever its length", () => {
    const seal = recordSeal([newKey]);
    for (const token of tokens) assert.equal(seal.open(seal.seal(token, BOUND), BOUND), token, token.slice(0, 20));
  });

  it("is sealed with the first key of the rotation and opened with any of its keys; a removed key's opens to nothing", () => {
    const before = recordSeal([oldKey]).seal("token-of-alice", BOUND);
    const rotated = recordSeal([newKey, oldKey]);
    assert.equal(rotated.open(before, BOUND), "token-of-alice", "a seal of the previous key still opens");
    const after = rotated.seal("token-of-alice", BOUND);
    assert.equal(recordSeal([newKey]).open(after, BOUND), "token-of-alice", "the new key seals");
    assert.equal(recordSeal([oldKey]).open(after, BOUND), undefined, "not the old one");
    assert.equal(
      recordSeal([newKey]).open(before, BOUND),
      undefined,
      "once the old key is removed, its seals open no more",
    );
    assert.equal(recordSeal([otherKey]).open(after, BOUND), undefined, "nor under a key of another portal");
  });

  it("opens to nothing, never throwing, once tampered with: a flipped byte anywhere, cut short, or made up", () => {
    const seal = recordSeal([newKey]);
    const sealed = seal.seal("token-of-alice", BOUND);
    const bytes = Buffer.from(sealed, "base64url");
    for (let at = 0; at < bytes.length; at++) {
      const flipped = Buffer.from(bytes);
      flipped[at] = (flipped[at] ?? 0) ^ 0x01;
      assert.equal(seal.open(flipped.toString("base64url"), BOUND), undefined, `byte ${at} flipped`);
    }
    const madeUp = ["", "token-of-alice", sealed.slice(0, 20), sealed.slice(0, -2), "@@@@", "A".repeat(64)];
    for (const value of madeUp) assert.equal(seal.open(value, BOUND), undefined, JSON.stringify(value));
  });

  it("never holds the token: no part of it is readable in the seal, and two seals of one token differ", () => {
    const seal = recordSeal([newKey]);
    // Tokens long enough that a piece of one found in the seal by chance is out of the question.
    for (const token of tokens.filter((long) => long.length >= 12)) {
      const sealed = seal.seal(token, BOUND);
      const raw = Buffer.from(sealed, "base64url").toString("latin1");
      for (const shown of [sealed, raw])
        assert.ok(!shown.includes(token.slice(0, 8)), `${token.slice(0, 20)}: the seal shows none of it`);
      assert.ok(!sealed.includes(Buffer.from(token).toString("base64url").slice(0, 12)), "nor its base64");
      assert.notEqual(seal.seal(token, BOUND), sealed, "a fresh nonce each time");
    }
  });
});

// A large upstream token is kept packed in the session cookie, so that the cookie fits; it always comes back whole.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { brotliCompressSync } from "node:zlib";
import { jwtLikeToken } from "#harness/fake-upstream.ts";
import { PACK_FROM_CHARACTERS, packToken, unpackToken } from "#server/token-pack.ts";

describe("the upstream token in the cookie", () => {
  it("keeps a token shorter than the threshold as it is", () => {
    const token = "t".repeat(PACK_FROM_CHARACTERS - 1);
    assert.deepEqual(packToken(token), { token });
    assert.equal(unpackToken({ token }), token);
  });

  it("packs a large JWT-like token smaller, and unpacks it byte for byte", () => {
    for (const length of [PACK_FROM_CHARACTERS, 2_000, 6_000]) {
      const token = jwtLikeToken(length);
      const stored = packToken(token);
      assert.ok("packedToken" in stored, `a ${length}-character token is packed`);
      assert.ok(stored.packedToken.length < token.length, "the packed form is shorter");
      assert.equal(unpackToken(stored), token);
    }
  });

  it("brings back tokens that are not base64url segments exactly as they were", () => {
    const odd = [
      `${"a".repeat(600)}.b=.c`,
      `${"é".repeat(300)}${"x".repeat(300)}`,
      `${".".repeat(700)}`,
      `${"AAAA.".repeat(200)}`,
      // A base64url segment with bits a round trip would not keep.
      `${"A".repeat(599)}B`,
    ];
    for (const token of odd) assert.equal(unpackToken(packToken(token)), token, token.slice(0, 20));
  });

  it("keeps a token as it is when packing would not make it shorter", () => {
    // Random bytes do not compress, and base64 of the packed form is longer than base64url of the token.
    const random = randomBytes(390).toString("base64url");
    assert.deepEqual(packToken(random), { token: random });
  });

  it("reads a stored form it cannot decode as no token, never as an error", () => {
    assert.equal(unpackToken({ packedToken: "not brotli at all" }), undefined);
    assert.equal(unpackToken({ packedToken: "" }), undefined);
    assert.equal(unpackToken({ token: 42 } as unknown as { token: string }), undefined);
  });

  it("refuses a packed form that would grow beyond any token the portal packs", () => {
    // 200 KiB of text compresses to a few hundred bytes: a cookie could carry it, the portal never unpacks it.
    const huge = brotliCompressSync(Buffer.concat([Buffer.from([0]), Buffer.alloc(200 * 1024, "a")])).toString(
      "base64",
    );
    assert.ok(huge.length < 1_000);
    assert.equal(unpackToken({ packedToken: huge }), undefined);
  });
});

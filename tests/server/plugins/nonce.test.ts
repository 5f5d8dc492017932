// An answer's CSP nonce: one per answer, the same wherever that answer asks for it, never another answer's; drawn from
// pooled random bytes, cheaper than a system call each and still never the same bytes twice.
import assert from "node:assert/strict";
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { describe, it } from "node:test";
import { nonceOf, nonceSource, pooledRandomBytes } from "#server/plugins/nonce.ts";

const answer = () => new ServerResponse(new IncomingMessage(new Socket()));

describe("the CSP nonce", () => {
  it("is 128 random bits in base64, the same for every part of one answer", () => {
    const response = answer();
    const nonce = nonceOf(response);
    assert.equal(Buffer.from(nonce, "base64").length, 16);
    assert.equal(nonceOf(response), nonce, "the page's scripts and the policy name the same nonce");
    assert.equal(nonceSource(undefined, response), `'nonce-${nonce}'`);
  });

  it("differs from one answer to the next", () => {
    const nonces = new Set(Array.from({ length: 1_000 }, () => nonceOf(answer())));
    assert.equal(nonces.size, 1_000);
  });
});

describe("pooled random bytes", () => {
  it("hands out the asked number of bytes, a copy the caller owns", () => {
    const bytes = pooledRandomBytes(16);
    assert.equal(bytes.length, 16);
    const kept = Buffer.from(bytes);
    for (let i = 0; i < 600; i++) pooledRandomBytes(16);
    assert.deepEqual(bytes, kept, "refilling the pool does not change bytes already handed out");
  });

  it("never hands out the same bytes twice, across several refills of the pool", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2_000; i++) seen.add(pooledRandomBytes(16).toString("hex"));
    assert.equal(seen.size, 2_000);
  });

  it("draws bytes that look random: every value of a byte appears, none far too often", () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 1_024; i++) for (const byte of pooledRandomBytes(64)) counts[byte] = (counts[byte] ?? 0) + 1;
    // 65,536 bytes: 256 of each value expected; a broken pool (zeros, a repeated block) is far outside these bounds.
    assert.ok(Math.min(...counts) > 150, `least frequent: ${Math.min(...counts)}`);
    assert.ok(Math.max(...counts) < 380, `most frequent: ${Math.max(...counts)}`);
  });
});

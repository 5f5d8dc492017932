// An answer's CSP nonce: one per answer, the same wherever that answer asks for it, never another answer's.
import assert from "node:assert/strict";
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { describe, it } from "node:test";
import { nonceOf, nonceSource } from "#server/plugins/nonce.ts";

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

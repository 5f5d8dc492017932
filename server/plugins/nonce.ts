// An answer's CSP nonce: 128 random bits from a pooled buffer (one getrandom call per 256 nonces, as randomUUID pools,
// where @fastify/helmet's own nonces cost two system calls per page), one per answer for its scripts and styles. Helmet
// writes it into the policy through directive functions, its documented way; the page reads the same nonce by its
// response.
import { randomFillSync } from "node:crypto";
import type { ServerResponse } from "node:http";

const pool = Buffer.alloc(4096);
let offset = pool.length;

/** `count` fresh random bytes (at most the pool's size), copied out: every byte is handed out once, never reused. */
export function pooledRandomBytes(count: number): Buffer {
  if (offset + count > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + count));
  offset += count;
  return bytes;
}

const nonces = new WeakMap<ServerResponse, string>();

export function nonceOf(response: ServerResponse): string {
  let nonce = nonces.get(response);
  if (nonce === undefined) {
    nonce = pooledRandomBytes(16).toString("base64");
    nonces.set(response, nonce);
  }
  return nonce;
}

/** A CSP source naming the answer's nonce. */
export const nonceSource = (_request: unknown, response: ServerResponse) => `'nonce-${nonceOf(response)}'`;

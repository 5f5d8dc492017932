// CSP nonces of 128 random bits, drawn from a pooled buffer: one getrandom call per 256 nonces (as randomUUID pools),
// which matters where a system call is dear. Each nonce is used once; the pool is refilled, never reused.
import { randomFillSync } from "node:crypto";

const NONCE_BYTES = 16;
const pool = Buffer.alloc(NONCE_BYTES * 256);
let offset = pool.length;

export function newNonce(): string {
  if (offset >= pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const nonce = pool.toString("base64", offset, offset + NONCE_BYTES);
  offset += NONCE_BYTES;
  return nonce;
}

// Random bytes drawn from a pooled buffer: one getrandom call per 4 KiB (as randomUUID pools), which matters where a
// system call is dear. Every byte is handed out once; the pool is refilled, never reused.
import { randomFillSync } from "node:crypto";

const pool = Buffer.alloc(4096);
let offset = pool.length;

/** `count` fresh random bytes (at most the pool's size), copied out of the pool. */
export function pooledRandomBytes(count: number): Buffer {
  if (offset + count > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + count));
  offset += count;
  return bytes;
}

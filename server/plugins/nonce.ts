// An answer's CSP nonce: 128 random bits from the pool (one getrandom call per 256 nonces, where @fastify/helmet's own
// nonces cost two system calls per page), one per answer for its scripts and styles. Helmet writes it into the policy
// through directive functions, its documented way; the page reads the same nonce by its response.
import type { ServerResponse } from "node:http";
import { pooledRandomBytes } from "#server/security/random-pool.ts";

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

// CSP nonces of 128 random bits, each used once: one for an answer's scripts, one for its styles. They are drawn from a
// pooled buffer (one getrandom call per 4 KiB; two `randomBytes(16)` per page cost a system call each), made when
// helmet writes the page's policy and read again by the page's HTML, through the answer they belong to.
import type { ServerResponse } from "node:http";
import { pooledRandomBytes } from "#server/random-pool.ts";

export type Nonces = { script: string; style: string };

const newNonce = (): string => pooledRandomBytes(16).toString("base64");
const kNonces = Symbol("csp nonces");

/** This answer's nonces, made at the first call. */
export function cspNonces(response: ServerResponse): Nonces {
  const holder = response as ServerResponse & { [kNonces]?: Nonces };
  holder[kNonces] ??= { script: newNonce(), style: newNonce() };
  return holder[kNonces];
}

/** A CSP source naming this answer's nonce, for helmet's directives (it calls it with the raw request and answer). */
export const nonceSource =
  (kind: keyof Nonces) =>
  (_request: unknown, response: ServerResponse): string =>
    `'nonce-${cspNonces(response)[kind]}'`;

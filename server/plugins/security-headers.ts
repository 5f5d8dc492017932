// The security headers of every answer, from helmet, each policy's middleware built once: @fastify/helmet builds
// helmet's middleware again for every request, about 13 % of a signed-in page (docs/performance.md, row 11c), and only
// a page's nonce changes per answer, which helmet's directive functions write in. What of helmet this relies on is
// pinned in tests/server/plugins/security-headers.contract.test.ts. Fastify's own refusals before routing (a malformed
// URL) are answered before any hook runs, so they get the same headers from `writeSecurityHeaders`, and the refusals
// Node writes on the socket before a request exists (server/plugins/errors.ts, `clientErrors`) from
// `securityHeaderLines`. A page's CSP nonce is 128 random bits from a pooled buffer (one getrandom call per 256 nonces,
// as randomUUID pools, where @fastify/helmet's own cost two system calls per page), one per answer.
import { randomFillSync } from "node:crypto";
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import helmet, { type HelmetOptions } from "helmet";

declare module "fastify" {
  interface FastifyContextConfig {
    /** `page`: the route answers HTML pages, under the pages' policy with a nonce; otherwise nothing may load. */
    policy?: "page";
  }
}

const ONE_YEAR = 31_536_000;

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

// Each policy is the directives written here and nothing more: helmet otherwise merges its defaults in (fonts from any
// https: origin, inline styles), which would widen both.
export const securityHeaders = {
  hsts: { maxAge: ONE_YEAR, includeSubDomains: true },
  referrerPolicy: { policy: "same-origin" },
  // Pages have their own policy with nonces (below); everything else loads nothing.
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { "default-src": ["'none'"], "base-uri": ["'none'"], "frame-ancestors": ["'self'"] },
  },
  crossOriginResourcePolicy: { policy: "same-origin" },
} satisfies HelmetOptions;

/** The pages' policy, with each answer's nonce for its scripts and styles. */
export const pageDirectives = {
  "default-src": ["'self'"],
  "script-src": ["'strict-dynamic'", "'self'", nonceSource],
  "style-src": ["'self'", nonceSource],
  "img-src": ["'self'", "data:"],
  "frame-src": ["'self'"],
  "object-src": ["'none'"],
  "base-uri": ["'none'"],
  "form-action": ["'self'"],
  "frame-ancestors": ["'self'"],
};

export const pagePolicy = { useDefaults: false, directives: pageDirectives };

const everyAnswer = helmet(securityHeaders);
const pages = helmet({ ...securityHeaders, contentSecurityPolicy: pagePolicy });

/** Writes the headers onto a raw answer (for the answers no hook sees). */
export function writeSecurityHeaders(request: IncomingMessage, response: ServerResponse): void {
  everyAnswer(request, response, () => {});
}

/** Writes the pages' headers, with the answer's nonce, onto an answer whose route is no page's (a refused form's page). */
export function writePageHeaders(request: IncomingMessage, response: ServerResponse): void {
  pages(request, response, () => {});
}

/** The same headers as the lines of a raw answer, each ending in CRLF (for the refusals Node writes on the socket). */
export const securityHeaderLines = (() => {
  const response = new ServerResponse(new IncomingMessage(new Socket()));
  writeSecurityHeaders(response.req, response);
  return Object.entries(response.getHeaders())
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
})();

/** Every answer gets its headers on arrival, so an error or a redirect answered later carries them too. */
export const securityHeadersPlugin = fp(async (app: FastifyInstance) => {
  app.addHook("onRequest", (request, reply, done) => {
    const headers = request.routeOptions.config.policy === "page" ? pages : everyAnswer;
    headers(request.raw, reply.raw, () => done());
  });
});

// The security headers of every answer: @fastify/helmet applies them (server/app.ts). Fastify's own refusals before
// routing (a malformed URL) are answered before any hook runs, so they get the same headers from helmet itself.
import type { IncomingMessage, ServerResponse } from "node:http";
import helmet, { type HelmetOptions } from "helmet";

const ONE_YEAR = 31_536_000;

export const securityHeaders = {
  hsts: { maxAge: ONE_YEAR, includeSubDomains: true },
  referrerPolicy: { policy: "same-origin" },
  // Pages set their own policy with nonces (server/routes/pages.tsx); everything else loads nothing.
  contentSecurityPolicy: { directives: { "default-src": ["'none'"], "frame-ancestors": ["'self'"] } },
  crossOriginResourcePolicy: { policy: "same-origin" },
} satisfies HelmetOptions;

const apply = helmet(securityHeaders);

/** Writes the headers onto a raw answer (for the answers no hook sees). */
export function writeSecurityHeaders(request: IncomingMessage, response: ServerResponse): void {
  apply(request, response, () => {});
}

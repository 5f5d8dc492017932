// What restarts the idle time: a person's action (a navigation, a submitted form, an /api call, "Stay signed in") that
// the route accepted, never a refusal, a HEAD, a prefetch or prerender, a request another site started, or a load the
// browser makes by itself. Those loads are the pages' own Refresh: at the idle limit to
// /session/idle (a route marked `activity: false`) and the redirect back from it, or the checking page asking again.
// Each of those addresses carries a marker this module adds and reads, so the browser, not the person, is recognised.
import type { FastifyReply, FastifyRequest } from "fastify";
import { mayWrite } from "#server/session/fields.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** False on a route that a page calls by itself (not the person): it does not restart the idle time. */
    activity?: boolean;
  }
}

/** The query parameter that marks a load the browser makes by itself. */
export const BY_ITSELF = "by-itself";

/** `path` (a same-origin path, maybe with a query or fragment) as the browser loads it by itself. */
export function byItself(path: string): string {
  const hash = path.indexOf("#");
  const [rest, fragment] = hash === -1 ? [path, ""] : [path.slice(0, hash), path.slice(hash)];
  if (new URLSearchParams(rest.split("?")[1] ?? "").has(BY_ITSELF)) return path;
  return `${rest}${rest.includes("?") ? "&" : "?"}${BY_ITSELF}${fragment}`;
}

/**
 * Whether the person opened this page themselves: not another site (the session is only read), not a navigation the
 * browser made without their action (no `Sec-Fetch-User`: another page's script, a refresh), nor a page's own load.
 * Only then does the MFA step send a code as it opens: a page another site opened would mail one, spend the person's
 * allowance and void the code she is about to type.
 */
export function personOpened(request: FastifyRequest): boolean {
  const { "sec-fetch-mode": mode, "sec-fetch-user": user } = request.headers;
  if (!mayWrite(request) || (mode === "navigate" && user !== "?1")) return false;
  const query = request.url.indexOf("?");
  return query === -1 || !new URLSearchParams(request.url.slice(query + 1)).has(BY_ITSELF);
}

/** What the browser fetches ahead of the person (Speculation Rules, `<link rel=prefetch>`): `Sec-Purpose` or `Purpose`. */
const speculative = (value: string | string[] | undefined) => /prefetch|prerender/i.test(String(value ?? ""));

/**
 * Whether this request is a person's action: only then does the idle time start again. Decided on the answer: a
 * refusal (any status of 400 and above), a HEAD or OPTIONS, and a load the browser made ahead of the person are not.
 */
export function personActed(request: FastifyRequest, reply: FastifyReply): boolean {
  // A request another site started, a link followed included, is not counted (docs/decisions.md, "What restarts the
  // idle time"): another site can send the browser to a page without the person, and it would keep an unattended
  // session alive.
  if (!mayWrite(request)) return false;
  if (reply.statusCode >= 400 || request.method === "HEAD" || request.method === "OPTIONS") return false;
  if (speculative(request.headers["sec-purpose"]) || speculative(request.headers.purpose)) return false;
  if (request.routeOptions.config.activity === false) return false;
  const query = request.url.indexOf("?");
  return query === -1 || !new URLSearchParams(request.url.slice(query + 1)).has(BY_ITSELF);
}

// What restarts the idle time: a person's action (a navigation, a submitted form, an /api call, "Stay signed in"),
// never a load the browser makes by itself. Those loads are the pages' own Refresh: at the idle limit to
// /session/idle (a route marked `activity: false`) and the redirect back from it, or the checking page asking again.
// Each of those addresses carries a marker this module adds and reads, so the browser, not the person, is recognised.
import type { FastifyRequest } from "fastify";

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

/** Whether this request is a person's action: only then does the idle time start again. */
export function personActed(request: FastifyRequest): boolean {
  if (request.routeOptions.config.activity === false) return false;
  const query = request.url.indexOf("?");
  return query === -1 || !new URLSearchParams(request.url.slice(query + 1)).has(BY_ITSELF);
}

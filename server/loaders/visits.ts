// Which page views are visits (requirements 4.8): a navigation to a new page of the person's own is remembered as the
// previous path (in the session's record) and handed to the tracker once its answer has gone.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { previousPage, visitorOn } from "#server/session/fields.ts";
import { endSession } from "#server/session/lifecycle.ts";
import { rememberPage } from "#server/session/writes.ts";
import type { Visit, VisitTracker } from "#server/upstream/tracking.ts";
import type { RouteMatch } from "#web/routes/table.ts";
import { pathnameOf } from "#web/site.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The page visit this answer records once sent (requirements 4.8). */
    visit: Visit | undefined;
  }
}

/**
 * The page a path shows, as the route table spells it: one page under every spelling of its address (case, a trailing
 * slash, %-escapes) is one path, so requirements 4.8's "equals the previous one" holds for the page, not the text. A
 * path no page matches (a not-found page) is kept as it came.
 */
function pageOf(request: FastifyRequest, match: RouteMatch | undefined): string {
  if (match === undefined) return pathnameOf(request.url);
  return match.entry.path.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(match.params[key] ?? ""));
}

/**
 * A browser's navigation to a page: a GET (not a HEAD) for a document (when the browser says what it fetches: an icon
 * request that lands on a page is no visit) that is not a speculative prefetch.
 */
export function isNavigation(request: FastifyRequest): boolean {
  if (request.method !== "GET") return false;
  const destination = request.headers["sec-fetch-dest"];
  if (destination !== undefined && destination !== "document" && destination !== "iframe") return false;
  const { "sec-purpose": secPurpose, purpose } = request.headers;
  if (secPurpose === undefined && purpose === undefined) return true;
  return !/prefetch|prerender/i.test(`${secPurpose ?? ""} ${purpose ?? ""}`);
}

/**
 * A navigation to a page of the person's own (server/session/fields.ts, `visitorOn`) that is neither `/` nor the
 * previous path is a visit: it becomes the previous path, and it is sent once the page's answer has gone.
 */
export function noteVisit(request: FastifyRequest, match: RouteMatch | undefined, ownForm: boolean): void {
  const page = pageOf(request, match);
  const auth = visitorOn(request, ownForm);
  const record = request.record;
  if (!auth || !record || page === "/" || !isNavigation(request) || previousPage(request) === page) return;
  rememberPage(request, page);
  const { id, value } = record;
  request.visit = {
    token: auth.token,
    page,
    session: id,
    refused: () => void endSession(request, id, value, "upstream-refused"),
  };
}

/** Sends the visits `noteVisit` found once their answers have gone: never on the response path. */
export function sendVisits(app: FastifyInstance, tracker: VisitTracker): void {
  app.decorateRequest("visit", undefined);
  app.addHook("onResponse", (request, _reply, done) => {
    const visit = request.visit;
    if (visit) tracker.enqueue(visit);
    done();
  });
}

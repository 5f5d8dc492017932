// Which page views are visits (requirements 4.8): a navigation to a new page of the person's own is remembered in the
// session and handed to the tracker once its answer has gone.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { visitorOn } from "#server/session/standing.ts";
import { rememberVisit } from "#server/session/writes.ts";
import { isNavigation, type Visit, type VisitTracker } from "#server/tracking.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The page visit this answer records once sent (requirements 4.8). */
    visit: Visit | undefined;
  }
}

/**
 * A navigation to a page of the person's own (server/session/standing.ts, `visitorOn`) that is not the previous one
 * is a visit: the session remembers it (`rememberVisit`), and it is sent once the page's answer has gone.
 */
export function noteVisit(request: FastifyRequest, ownForm: boolean): void {
  const page = request.pagePath;
  const auth = visitorOn(request, ownForm);
  if (auth && isNavigation(request) && rememberVisit(request, page)) request.visit = { token: auth.token, page };
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

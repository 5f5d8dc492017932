// Every page of the route table: the row that matches, its screen's `load` (props or a redirect), its visit noted
// (server/pages/visits.ts, sent after the answer has gone), then one `reply.page`.
import type { FastifyInstance } from "fastify";
import { loadPublic } from "#server/pages/public.tsx";
import type { Loaded, PageRequest, Screens } from "#server/pages/screen.ts";
import { loadSection } from "#server/pages/section.tsx";
import { noteVisit, sendVisits } from "#server/pages/visits.ts";
import { signInForms } from "#server/routes/sign-in-forms.ts";
import { takeFormAnswer } from "#server/session/writes.ts";
import { isNavigation } from "#server/tracking.ts";
import type { FormAnswer } from "#web/protocol/form-answer.ts";
import type { RouteEntry, SignedInSection } from "#web/routes/row.ts";
import { matchRoute, sectionOf } from "#web/routes/table.ts";
import { pathnameOf } from "#web/site.ts";

/** The pages, and their forms; `reply.page` is the session scope's (server/app.ts). */
export async function pageRoutes(app: FastifyInstance, screens: Screens): Promise<void> {
  const { context } = screens;
  // One reading of a page's query, for its view and its form alike: a repeated parameter counts once, by its first
  // value (a hand-edited address never breaks a page). Its path is `pathnameOf(request.url)` wherever it is read.
  app.addHook("preHandler", async (request) => {
    const query = request.query as Record<string, string | string[] | undefined>;
    request.query = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  });
  // requirements 4.8: a signed-in navigation is a visit.
  sendVisits(app, context.tracker);

  /** A page's props or a redirect; a form of the sign-in path sent back (`answer`) is shown on its page. */
  const load = async (request: PageRequest, answer?: FormAnswer): Promise<Loaded> => {
    const pathname = pathnameOf(request.url);
    const match = matchRoute(pathname);
    request.pageRoute = match?.entry.path;
    const section = match ? signedInSection(match.entry) : sectionOf(pathname);
    if (section) return loadSection(screens, section, match, request, answer);
    if (match) return loadPublic(screens, match.entry, request, answer);
    return { redirect: "/" };
  };

  app.get("/*", { config: { policy: "page" } }, async (request: PageRequest, reply) => {
    // What a form posted here came to (server/routes/sign-in-forms.ts), shown once, by the document the person sees.
    const loaded = await load(request, isNavigation(request) ? takeFormAnswer(request) : undefined);
    if ("redirect" in loaded) return reply.redirect(loaded.redirect, 302);
    noteVisit(request, loaded.ownForm === true);
    return reply.page(loaded);
  });
  // The same pages' forms, posted without script: answered here, by the same loads.
  await app.register(signInForms, { screens, load });
}

const signedInSection = (entry: RouteEntry): SignedInSection | undefined =>
  entry.section === "public" ? undefined : entry.section;

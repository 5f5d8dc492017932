// Every page of the route table, a Fastify route per row: its screen's `load` (props or a redirect), its visit noted
// (server/loaders/visits.ts, sent after the answer has gone), then one `reply.page`. Another spelling of a row's address
// (case, a trailing slash, escapes) is that row, found by the table's matcher; a section's address no row has is that
// section's not-found page, and any other address goes to the sign-in page.
import type { FastifyInstance, FastifyReply } from "fastify";
import type { Params } from "#server/actions/rules.ts";
import { loadPublic } from "#server/loaders/public.tsx";
import type { Loaded, PageRequest, Screens } from "#server/loaders/screen.ts";
import { loadSection } from "#server/loaders/section.tsx";
import { isNavigation, noteVisit, sendVisits } from "#server/loaders/visits.ts";
import { signInForms } from "#server/routes/sign-in-forms.ts";
import { takeFormAnswer } from "#server/session/writes.ts";
import type { FormAnswer } from "#web/protocol/form-answer.ts";
import type { RouteEntry, SignedInSection } from "#web/routes/row.ts";
import { matchRoute, type RouteMatch, routes, sectionOf } from "#web/routes/table.ts";
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

  /** The page of `match` (none: no row has this address), with what a form of the sign-in path sent back came to. */
  const load = async (request: PageRequest, match: RouteMatch | undefined, answer?: FormAnswer): Promise<Loaded> => {
    const section = match ? signedInSection(match.entry) : sectionOf(pathnameOf(request.url));
    if (section) return loadSection(screens, section, match, request, answer);
    if (match) return loadPublic(screens, match.entry, request, answer);
    return { redirect: "/" };
  };

  const show = async (request: PageRequest, reply: FastifyReply, match: RouteMatch | undefined) => {
    // What a form posted here came to (server/routes/sign-in-forms.ts), shown once, by the document the person sees.
    const loaded = await load(request, match, isNavigation(request) ? takeFormAnswer(request) : undefined);
    if ("redirect" in loaded) return reply.redirect(loaded.redirect, 302);
    noteVisit(request, match, loaded.ownForm === true);
    return reply.page(loaded);
  };
  const options = { config: { policy: "page" } } as const;
  for (const entry of routes)
    app.get(entry.path, options, (request, reply) =>
      show(request as PageRequest, reply, { entry, params: request.params as Params }),
    );
  app.get("/*", options, (request, reply) => show(request as PageRequest, reply, matchRoute(pathnameOf(request.url))));
  // The same pages' forms, posted without script: answered here, by the same loads.
  await app.register(signInForms, { screens, load });
}

const signedInSection = (entry: RouteEntry): SignedInSection | undefined =>
  entry.section === "public" ? undefined : entry.section;

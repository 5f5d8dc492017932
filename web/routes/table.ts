// The one route table (requirements 2) and its matcher. Server routing, gates, menus, titles and tests read it;
// adding a route means adding one row to its section's file.
import { parse } from "regexparam";
import { matchRoute as wouterMatch } from "wouter";
import { clientRoutes } from "#web/routes/client.ts";
import { publicRoutes } from "#web/routes/public.ts";
import type { RouteEntry, Section, SignedInSection } from "#web/routes/row.ts";
import { uscisRoutes } from "#web/routes/uscis.ts";
import { usptoRoutes } from "#web/routes/uspto.ts";
import { vendorRoutes } from "#web/routes/vendor.ts";
import type { Site } from "#web/site.ts";

/** Every route, first match wins: the public rows come first, since `/uspto/login` and the like need no session. */
export const routes: readonly RouteEntry[] = [
  ...publicRoutes,
  ...clientRoutes,
  ...vendorRoutes,
  ...usptoRoutes,
  ...uscisRoutes,
];

/**
 * Which signed-in audience may open each section. docs/requirements.md names patent-section and immigration-section users but no
 * way to sign them in; the fees are paid by client companies, so client sessions are served there (docs/routes.md).
 */
export const sectionAudience: Record<SignedInSection, Site> = {
  client: "client",
  vendor: "vendor",
  uspto: "client",
  uscis: "client",
};

export const signedInSections = Object.keys(sectionAudience) as SignedInSection[];

/** wouter's default parser (regexparam), each row's pattern parsed once: wouter would parse it on every match. */
const parsed = new Map(routes.map((entry) => [entry.path, parse(entry.path)]));
const parser = (route: string, loose?: boolean) => (loose ? undefined : parsed.get(route)) ?? parse(route, loose);

export type RouteMatch = { entry: RouteEntry; params: Record<string, string> };

/**
 * The route table's matcher is wouter's own `matchRoute`, with its default parser: the path is decoded with decodeURI
 * (left as is when malformed), case-insensitive, one optional trailing slash. The same code runs on the server and in
 * the browser.
 */
export function matchRoute(pathname: string): RouteMatch | undefined {
  const path = decodePath(pathname);
  for (const entry of routes) {
    const [found, params] = wouterMatch(parser, entry.path, path);
    if (!found) continue;
    const keys = parsed.get(entry.path)?.keys ?? [];
    return {
      entry,
      params: Object.fromEntries(keys.map((key) => [key, (params as Record<string, string | undefined>)[key] ?? ""])),
    };
  }
  return undefined;
}

/** wouter's `unescape`: decodes %-sequences of a path, or keeps it as it is when they are malformed. */
function decodePath(path: string): string {
  try {
    return path.includes("%") ? decodeURI(path) : path;
  } catch {
    return path;
  }
}

/** The signed-in section a pathname falls in, even when no row matches it (for the not-found page). */
export function sectionOf(pathname: string): SignedInSection | undefined {
  const first = decodePath(pathname).split("/")[1]?.toLowerCase();
  return signedInSections.find((section) => section === first);
}

/** The path the navigation lists for a row: its own, or that of the row whose screen it shows. */
export const canonicalPath = (entry: RouteEntry): string => entry.sameAs ?? entry.path;

/** The path of a section's screen by its title; links are built from the table, not typed as strings. */
export function pathOf(section: Section, title: string): string {
  const found = routes.find((entry) => entry.section === section && entry.title === title && !entry.sameAs);
  if (!found) throw new Error(`no route ${section} ${title}`);
  return found.path;
}

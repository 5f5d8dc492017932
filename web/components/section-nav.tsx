// The section's navigation: only the pages this user may open, grouped, the current one marked.
import { gates } from "#web/gates.ts";
import { type NavGroup, type RouteEntry, routes, type Section } from "#web/routes.ts";
import type { UserInfo } from "#web/site.ts";

/** The navigation of a section for these permissions, in the table's order. */
export function navigationFor(section: Section, permissions: UserInfo): [NavGroup, RouteEntry[]][] {
  const groups = new Map<NavGroup, RouteEntry[]>();
  for (const entry of routes) {
    if (entry.section !== section || !entry.group) continue;
    if (entry.gate && !gates[entry.gate](permissions)) continue;
    groups.set(entry.group, [...(groups.get(entry.group) ?? []), entry]);
  }
  return [...groups];
}

export function SectionNav({
  section,
  permissions,
  current,
}: {
  section: Section;
  permissions: UserInfo;
  current: string;
}) {
  return (
    <nav className="section-nav" aria-label="Section">
      {navigationFor(section, permissions).map(([group, entries]) => (
        <details key={group} open={entries.some((entry) => entry.path === current) || group === "Home"}>
          <summary>{group}</summary>
          <ul>
            {entries.map((entry) => (
              <li key={entry.path}>
                <a href={entry.path} aria-current={entry.path === current ? "page" : undefined}>
                  {entry.title}
                </a>
              </li>
            ))}
          </ul>
        </details>
      ))}
    </nav>
  );
}

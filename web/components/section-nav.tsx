// The section's navigation: only the pages this user may open, grouped, the current one marked. A sidebar on wide
// screens, behind a "Menu" toggle on narrow ones (web/styles/sections.css); it works without JavaScript.
import { opens } from "#web/routes/opens.ts";
import type { NavGroup, RouteEntry, SignedInSection } from "#web/routes/row.ts";
import { routes } from "#web/routes/table.ts";
import type { UserInfo } from "#web/site.ts";
import { sectionTexts } from "#web/texts/sections.ts";

/** The navigation of a section for these permissions: the table's listed rows whose gate passes, in its order. */
export function navigationFor(section: SignedInSection, permissions: UserInfo): [NavGroup, RouteEntry[]][] {
  const groups = new Map<NavGroup, RouteEntry[]>();
  for (const entry of routes) {
    if (entry.section !== section || !entry.group) continue;
    if (!opens(entry, permissions)) continue;
    groups.set(entry.group, [...(groups.get(entry.group) ?? []), entry]);
  }
  return [...groups];
}

type Props = {
  section: SignedInSection;
  permissions: UserInfo;
  /** The listed path of the page shown (an alias marks its original); unset on the forbidden and not-found pages. */
  current: string | undefined;
};

export function SectionNav({ section, permissions, current }: Props) {
  const groups = navigationFor(section, permissions);
  const listed = groups.some(([, entries]) => entries.some((entry) => entry.path === current));
  const navId = `${section}-nav`;
  return (
    <aside className="section-aside">
      {/* Narrow screens' "Menu" toggle, with the navigation after it rather than inside: the navigation shows while the
          toggle is open, and always on wide screens, where a closed disclosure's content would be hidden from
          assistive technology although it shows. */}
      <details className="section-menu">
        <summary aria-controls={navId}>{sectionTexts.menu}</summary>
      </details>
      <nav id={navId} className="section-nav" aria-label={sectionTexts.navLabel(section)}>
        {groups.map(([group, entries]) => {
          const holdsCurrent = entries.some((entry) => entry.path === current);
          return (
            // The current page's group starts open; Home does when the page shown is not in the menu.
            <details key={group} open={holdsCurrent || (group === "Home" && !listed) || undefined}>
              <summary className={holdsCurrent ? "nav-group holds-current" : "nav-group"}>{group}</summary>
              <ul>
                {entries.map((entry) => (
                  <li key={entry.path}>
                    <a href={entry.path} aria-current={entry.path === current ? "page" : undefined}>
                      {entry.menuTitle ?? entry.title}
                    </a>
                  </li>
                ))}
              </ul>
            </details>
          );
        })}
      </nav>
    </aside>
  );
}

// A section page whose content docs/requirements.md does not show: what the page is for (the route table's purpose), where its
// content comes from, and where to go next (the section home, the other pages of its group, support). Nothing made up.
import type { ReactNode } from "react";
import { navigationFor } from "#web/components/section-nav.tsx";
import type { RouteEntry, SignedInSection } from "#web/routes/row.ts";
import { canonicalPath, routes, sectionAudience } from "#web/routes/table.ts";
import type { UserInfo } from "#web/site.ts";
import { sectionTexts } from "#web/texts/sections.ts";

type Props = {
  section: SignedInSection;
  entry: RouteEntry;
  permissions: UserInfo | undefined;
  /** What the row's loader drew (server/loaders/loaders.tsx), shown in place of the note that the content is the provider's. */
  children?: ReactNode;
};

const homeOf = (section: SignedInSection) =>
  routes.find((row) => row.section === section && row.screen === "home" && !row.sameAs);

/** The support page of the section's audience (the patent-fee and immigration-fee sections are a client's). */
const supportOf = (section: SignedInSection) =>
  routes.find((row) => row.section === sectionAudience[section] && row.screen === "support");

/** The other pages of the entry's navigation group that this person may open. */
function relatedPages(section: SignedInSection, entry: RouteEntry, permissions: UserInfo | undefined): RouteEntry[] {
  if (!permissions || !entry.group) return [];
  const group = navigationFor(section, permissions).find(([name]) => name === entry.group)?.[1] ?? [];
  return group.filter((row) => row.path !== canonicalPath(entry) && row.screen !== "home");
}

export function EmptyScreen({ section, entry, permissions, children }: Props) {
  const home = homeOf(section);
  const support = supportOf(section);
  const related = relatedPages(section, entry, permissions);
  return (
    <article className="empty-screen">
      <h1>{entry.title}</h1>
      <p className="purpose">{entry.about}</p>
      {children ?? <p className="empty-note">{sectionTexts.fromProvider}</p>}
      <h2>{sectionTexts.nextHeading}</h2>
      <ul className="next-links">
        {home ? (
          <li>
            <a href={home.path}>{sectionTexts.backToHome(home.title === "Home" ? undefined : home.title)}</a>
          </li>
        ) : null}
        {related.length > 0 ? (
          <li>
            {sectionTexts.relatedIn(entry.group ?? "")}
            <ul aria-label={sectionTexts.pagesOf(entry.group ?? "")}>
              {related.map((row) => (
                <li key={row.path}>
                  <a href={row.path}>{row.title}</a>
                </li>
              ))}
            </ul>
          </li>
        ) : null}
        {support ? (
          <li>
            <a href={support.path}>{support.title}</a>
            {sectionTexts.supportHint}
          </li>
        ) : null}
      </ul>
    </article>
  );
}

// A section's home: who is signed in, what they may do here, and the areas they may open as cards, built from the
// route table and the gates alone, and said only of the pages those open; a client also finds the patent-fee and
// immigration-fee sections here.
import type { ReactElement } from "react";
import { Isolated, isolate } from "#web/components/isolated.tsx";
import { navigationFor } from "#web/components/section-nav.tsx";
import type { PageContext } from "#web/page-context.ts";
import { opensPath } from "#web/routes/opens.ts";
import type { RouteEntry, SignedInSection } from "#web/routes/row.ts";
import { routes, sectionAudience } from "#web/routes/table.ts";
import type { UserInfo } from "#web/site.ts";
import { homeTexts } from "#web/texts/home.ts";
import { sectionTexts } from "#web/texts/sections.ts";

type Props = {
  context: PageContext;
  section: SignedInSection;
  entry: RouteEntry;
  permissions: UserInfo;
  /** What the home row's loader drew (the last sign-in, server/loaders/loaders.tsx), under the welcome. */
  loaded?: ReactElement | undefined;
};

/** The other sections this section's audience is served (for clients: patent fees and immigration fees), by home. */
function otherSections(section: SignedInSection): { other: SignedInSection; home: RouteEntry }[] {
  const audience = sectionAudience[section];
  return (Object.keys(sectionAudience) as SignedInSection[])
    .filter((other) => other !== section && other !== audience && sectionAudience[other] === audience)
    .flatMap((other) => {
      const home = routes.find((row) => row.section === other && row.screen === "home" && !row.sameAs);
      return home ? [{ other, home }] : [];
    });
}

/** A named list of links to pages, each by its title. */
function PageLinks({ className, label, rows }: { className: string; label: string; rows: RouteEntry[] }) {
  return (
    <ul className={className} aria-label={label}>
      {rows.map((row) => (
        <li key={row.path}>
          <a className="home-link" href={row.path}>
            {row.title}
          </a>
        </li>
      ))}
    </ul>
  );
}

export function HomeScreen({ context, section, entry, permissions, loaded }: Props) {
  const opensPage = (path: string) => opensPath(path, permissions);
  const groups = navigationFor(section, permissions);
  const shortcuts = (groups.find(([group]) => group === "Home")?.[1] ?? []).filter((row) => row.screen !== "home");
  const areas = groups.flatMap(([group, rows]) => {
    const holds = homeTexts.holdings(section, group, opensPage);
    return holds ? [{ group, rows, holds }] : [];
  });
  const doings = homeTexts.doings(section, opensPage);
  const others = otherSections(section);
  const { user } = context;
  return (
    <article className="home">
      <header className="home-intro">
        <h1>{entry.title}</h1>
        <p className="home-who">
          <Isolated text={homeTexts.welcome(isolate(user?.name ?? ""), isolate(user?.company ?? ""))} />
        </p>
        {loaded}
        {doings ? <p>{doings}</p> : null}
        {shortcuts.length > 0 ? (
          <PageLinks className="home-shortcuts" label={homeTexts.shortcuts} rows={shortcuts} />
        ) : null}
      </header>
      <p className="home-menu-hint">{homeTexts.menuHint(sectionTexts.menu)}</p>
      <h2 className="home-areas-heading">{homeTexts.areasHeading}</h2>
      <ul className="area-cards">
        {areas.map(({ group, rows, holds }) => (
          <li key={group} className="area-card">
            <h3>{group}</h3>
            <p>{holds}</p>
            <PageLinks className="area-links" label={sectionTexts.pagesOf(group)} rows={rows} />
          </li>
        ))}
      </ul>
      {others.length > 0 ? (
        <>
          <h2 className="home-areas-heading">{homeTexts.otherSectionsHeading}</h2>
          <ul className="area-cards">
            {others.map(({ other, home }) => (
              <li key={home.path} className="area-card area-card-section">
                <h3>
                  <a className="home-link" href={home.path}>
                    {home.title}
                  </a>
                </h3>
                <p>{homeTexts.doings(other, opensPage)}</p>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </article>
  );
}

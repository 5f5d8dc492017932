// The CLIENT LOGIN / VENDOR LOGIN toggle as an ARIA tablist (requirements 2.2), disabled while a token is held. Each tab
// is a link to its site's page (`?site=vendor`), so it works before the island arrives; the island then switches in place.
import type { KeyboardEvent, MouseEvent } from "react";
import { type Site, sites } from "#web/site.ts";
import { loginTexts } from "#web/texts/login-screen.ts";

const labels: Record<Site, string> = { client: loginTexts.clientTab, vendor: loginTexts.vendorTab };
export const tabId = (site: Site) => `login-tab-${site}`;
export const panelId = "login-panel";

/**
 * The address of a site's page on the login page's path: `?site=vendor` (client, the default, needs none), with the
 * page first asked for when one was kept, and `more` (`reset`, the panel open).
 */
export function siteLink(site: Site, returnTo?: string, more?: string): string {
  const query = new URLSearchParams(site === "client" ? {} : { site });
  if (returnTo) query.set("return", returnTo);
  const text = [query.toString(), more].filter(Boolean).join("&");
  return `?${text}`;
}

type Props = { active: Site; disabled: boolean; onSelect: (site: Site) => void; returnTo?: string | undefined };

export function SiteTabs({ active, disabled, onSelect, returnTo }: Props) {
  // Arrow keys move to the other tab (there are two), Home and End to the first and last, selecting it
  // (automatic activation); Space and Enter activate the focused tab, as the ARIA tab pattern does (a link's Space
  // would scroll the page instead).
  const onKeyDown = (site: Site) => (event: KeyboardEvent<HTMLAnchorElement>) => {
    const [first, last] = sites;
    const other = active === first ? last : first;
    const moves: Record<string, Site> = {
      Home: first,
      End: last,
      ArrowLeft: other,
      ArrowRight: other,
      " ": site,
      Enter: site,
    };
    const next = moves[event.key];
    if (!next || disabled) return;
    event.preventDefault();
    onSelect(next);
    document.getElementById(tabId(next))?.focus();
  };
  const onClick = (site: Site) => (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    if (!disabled) onSelect(site);
  };
  return (
    <div className="site-tabs" role="tablist" aria-label={loginTexts.tabsLabel}>
      {sites.map((site) => (
        <a
          key={site}
          id={tabId(site)}
          role="tab"
          // The other site's tab leads to its page; a held token disables the toggle, and says so.
          {...(disabled ? { "aria-disabled": true } : site === active ? {} : { href: siteLink(site, returnTo) })}
          aria-selected={site === active}
          aria-controls={panelId}
          tabIndex={site === active ? 0 : -1}
          // biome-ignore lint/a11y/useValidAnchor: a real link before the island wakes; the island then switches in place.
          onClick={onClick(site)}
          onKeyDown={onKeyDown(site)}
        >
          {labels[site]}
        </a>
      ))}
    </div>
  );
}

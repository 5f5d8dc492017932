// The CLIENT LOGIN / VENDOR LOGIN toggle as an ARIA tablist (requirements 2.2), disabled while a token is held.
import type { KeyboardEvent } from "react";
import { type Site, sites } from "#web/site.ts";
import { loginTexts } from "#web/texts/login-screen.ts";

const labels: Record<Site, string> = { client: loginTexts.clientTab, vendor: loginTexts.vendorTab };
export const tabId = (site: Site) => `login-tab-${site}`;
export const panelId = "login-panel";

type Props = { active: Site; disabled: boolean; onSelect: (site: Site) => void };

export function SiteTabs({ active, disabled, onSelect }: Props) {
  // Arrow keys move to the other tab (there are two), Home and End to the first and last, selecting it
  // (automatic activation).
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const [first, last] = sites;
    const other = active === first ? last : first;
    const moves: Record<string, Site> = { Home: first, End: last, ArrowLeft: other, ArrowRight: other };
    const next = moves[event.key];
    if (!next) return;
    event.preventDefault();
    onSelect(next);
    document.getElementById(tabId(next))?.focus();
  };
  return (
    <div className="site-tabs" role="tablist" aria-label={loginTexts.tabsLabel}>
      {sites.map((site) => (
        <button
          key={site}
          id={tabId(site)}
          type="button"
          role="tab"
          aria-selected={site === active}
          aria-controls={panelId}
          tabIndex={site === active ? 0 : -1}
          disabled={disabled}
          onClick={() => onSelect(site)}
          onKeyDown={onKeyDown}
        >
          {labels[site]}
        </button>
      ))}
    </div>
  );
}

// The CLIENT LOGIN / VENDOR LOGIN toggle as an ARIA tablist (SPEC.md 2.2), disabled while a token is held.
import type { KeyboardEvent } from "react";
import { sites, type Site } from "#web/site.ts";
import { loginTexts } from "#web/texts/login.ts";

const labels: Record<Site, string> = { client: loginTexts.clientTab, vendor: loginTexts.vendorTab };
export const tabId = (site: Site) => `login-tab-${site}`;
export const panelId = "login-panel";

type Props = { active: Site; disabled: boolean; onSelect: (site: Site) => void };

export function SiteTabs({ active, disabled, onSelect }: Props) {
  // Arrow keys move between the two tabs and select them (the automatic-activation tablist pattern).
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
    event.preventDefault();
    const index = sites.indexOf(active);
    const next =
      event.key === "Home" ? sites[0] : event.key === "End" ? sites[sites.length - 1] : sites[(index + 1) % sites.length];
    if (!next) return;
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

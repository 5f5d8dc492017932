// What every server-rendered page is given: the built assets, the configured contact details, who is signed in.
import type { Site } from "#web/site.ts";

export type AssetManifest = {
  css: string;
  /** The section layouts' stylesheet, linked by signed-in pages only (web/screens/document.tsx). */
  sectionsCss?: string;
  hydrate: string;
  /** The idle warning's script, on signed-in pages only (web/client/idle-warning.ts). */
  idleWarning?: string;
  /**
   * Island name → its own chunk first, then every chunk it and the hydration script import: preloaded together, only on
   * pages that carry that island, so the browser asks for all of them at once instead of one level of imports a trip.
   */
  islands: Record<string, string[]>;
  /** File name in web/public → hashed URL. */
  images: Record<string, string>;
};

export type PageContext = {
  assets: AssetManifest;
  support: { phone: string; phoneUk: string; email: string };
  providerName: string;
  taxBridge: boolean;
  /** The path of the page, for forms that come back to it. */
  path: string;
  /**
   * The signed-in user, when there is one: the user ID (empty when unknown, after a link sign-in) and, for a client,
   * the company short name (docs/decisions.md, "What the server passes to the pages").
   */
  user?: { name: string; site: Site; company?: string };
  /** The idle warning is shown: on every page of a signed-in session, and on an expired password's own step. */
  idleWarning?: boolean;
  year: number;
};

// What every server-rendered page is given: the built assets, the configured contact details, who is signed in.
import type { Site } from "#web/site.ts";

export type AssetManifest = {
  css: string;
  hydrate: string;
  /** Island name → its own chunk, preloaded only on pages that carry that island. */
  islands: Record<string, string>;
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
  /** The signed-in user, when there is one. */
  user?: { name: string; site: Site };
  year: number;
};

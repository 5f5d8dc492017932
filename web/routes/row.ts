// What one row of the route table says (path, section, screen, title, gate, nav group), and the builders of rows.

import type { GateName } from "#web/gates.ts";
import { layoutTexts } from "#web/texts/layout.ts";

/** `public` pages need no session; every other section needs a signed-in session of its audience. */
export type Section = "public" | "client" | "vendor" | "uspto" | "uscis";
export type SignedInSection = Exclude<Section, "public">;

/** How a row's content is drawn; `about` is the title and a sentence of what the screen is for. */
export type Screen =
  | "login"
  | "mfa"
  | "link-login"
  | "tax-bridge-login"
  | "home"
  | "about"
  | "pdf"
  | "change-password"
  | "support"
  | "forbidden";

export type NavGroup =
  | "Home"
  | "Invoices"
  | "Batches"
  | "Spot & Wires"
  | "Reports"
  | "Vendors"
  | "VIP"
  | "Users"
  | "Security"
  | "Documents"
  | "Help"
  | "Patent fees"
  | "Immigration fees";

/**
 * What a row's screen shows beyond the table's words, loaded on the server for each request once its gate passed: the
 * name travels with the row (to the browser too), the function that loads and draws it is the server's
 * (server/loaders/loaders.tsx, whose table the type holds to these names).
 */
export type LoaderName = "account" | "last-sign-in";

export type PdfFile = "BankHolidays.pdf" | "ExpiringInvoicesPolicy.pdf" | "VendorLetter.pdf";

export type RouteEntry = {
  /** A wouter/regexparam pattern, e.g. `/uspto/codes/:type`. */
  path: string;
  section: Section;
  screen: Screen;
  title: string;
  gate?: GateName;
  /** Where the navigation lists it; unset: not listed (a page reached from another, or an alias). */
  group?: NavGroup;
  /** The navigation's words for it when they say more than its title (the security part, on Change Password). */
  menuTitle?: string;
  /**
   * For screens whose content docs/requirements.md does not show: what the screen is for, said plainly. A home says
   * what its person may do there instead, in words that fit their permissions (web/texts/home.ts).
   */
  about?: string;
  pdf?: PdfFile;
  /** The data its screen shows, loaded before the page renders; the screen places it (web/screens/section-page.tsx). */
  loader?: LoaderName;
  /** the requirements' "the same screen as": the path of the row whose screen this one shows (and the nav marks). */
  sameAs?: string;
};

/** Every section's change-password row is its security part: sessions, trusted browsers, activity (issue 41). */
export const securityEntry = { group: "Security", menuTitle: layoutTexts.securityMenu } as const;

type Extra = Partial<Omit<RouteEntry, "path" | "section" | "title" | "sameAs">>;

export type RowBuilders = {
  /** A row of its own screen; `path` is relative to the section (`""` is its index). */
  row(path: string, title: string, extra?: Extra): RouteEntry;
  /** A row that shows another row's screen: same title, text and gate, not listed in the navigation. */
  same(path: string, original: RouteEntry): RouteEntry;
};

/** The row builders of a section, which prefix its paths with `/{section}`. */
export function rowsOf(section: Section): RowBuilders {
  const full = (path: string) => (section === "public" ? path : `/${section}${path}`);
  return {
    row: (path, title, extra = {}) => ({
      path: full(path),
      section,
      title,
      screen: extra.screen ?? (extra.pdf ? "pdf" : "about"),
      ...extra,
    }),
    same: (path, original) => {
      const { group: _notListed, ...shown } = original;
      return { ...shown, path: full(path), sameAs: original.sameAs ?? original.path };
    },
  };
}

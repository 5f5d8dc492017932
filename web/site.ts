// The two signed-in audiences and the values docs/requirements.md gives them (site values, path segments, landings).
import type { components } from "#openapi/schema.d.ts";
import { foldAscii, personKey } from "#web/protocol/person-key.ts";

export type Site = components["schemas"]["Site"];
export type SiteValue = "CLIENT" | "VENDOR";
export type LoginMessage = components["schemas"]["LoginMessage"];
export type UserInfo = components["schemas"]["UserInfo"];

export const sites = ["client", "vendor"] as const satisfies readonly Site[];

/** requirements 9: the login messages the portal knows; a sign-in answer may carry any other (4.1: the token decides). */
export const loginMessages = ["Success", "Password Expired", "Deactivated"] as const satisfies readonly LoginMessage[];
/** The login message an answer carried, when it is one the portal knows; undefined for none and for any other. */
export const knownLoginMessage = (message: unknown): LoginMessage | undefined =>
  loginMessages.find((known) => known === message);
export const siteValue = (site: Site): SiteValue => (site === "client" ? "CLIENT" : "VENDOR");

/** requirements 2.7: where a signed-in user lands. */
export function landingPath(site: Site, taxBridge: boolean): string {
  if (taxBridge) return site === "client" ? "/client/submission/report" : "/vendor/invoice/due";
  return `/${site}/home`;
}

/** The longest page path the portal carries back after sign-in: the /session routes refuse a longer `return`. */
export const MAX_RETURN_LENGTH = 2048;

/** The path of an address, without its query or fragment (what wouter would see as `location.pathname`). */
export const pathnameOf = (url: string): string => url.split(/[?#]/, 1)[0] || "/";

/** `?return=…` for a path short enough to carry; a longer one is dropped (the browser lands as if none was asked). */
const returnQuery = (returnTo: string | undefined): string =>
  returnTo && returnTo.length <= MAX_RETURN_LENGTH ? `?return=${encodeURIComponent(returnTo)}` : "";

/** The sign-in page, which brings the person back to `returnTo` once signed in. */
export const signInUrl = (returnTo?: string): string => `/${returnQuery(returnTo)}`;

/**
 * Where a browser goes once signed in: the server picks the page (the one first asked for, when the user may open it;
 * else 2.7's landing, when its gate opens; else the section's home). server/routes/session.ts.
 */
export const landingUrl = (returnTo?: string): string => `/session/landing${returnQuery(returnTo)}`;

/**
 * requirements 3's device key of the multi-factor code, naming the person as the upstream does (site, company, user ID,
 * folded as web/protocol/person-key.ts folds them), so a code kept for one company's user is never sent for another
 * company's user of the same ID. A vendor has no company and keeps the requirements' `mfa-vendor-{username}`; a
 * client's key names the company as `mfa-client/{company}/{username}`, each part escaped, which no key of the old
 * form `mfa-client-{username}` can spell: an old client key is never read (docs/decisions.md).
 */
export const deviceKey = (site: Site, company: string, userName: string): string =>
  site === "vendor" ? `mfa-vendor-${foldAscii(userName)}` : `mfa-${personKey(site, company, userName)}`;

/** requirements 2.6: link-login `type` equal to `Vendor` means vendor; any other value means client. */
export const linkSite = (type: string | null): Site => (type === "Vendor" ? "vendor" : "client");

// The two signed-in audiences and the values docs/requirements.md gives them (site values, path segments, landings).
import type { components } from "#openapi/schema.ts";
import { foldAscii } from "#web/protocol/person-key.ts";

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
 * requirements 3.5's device key of the multi-factor code, `mfa-{site}-{username}` lowercased (folded as the upstream
 * compares user IDs: web/protocol/person-key.ts). A client's key does not name the company: `deviceOwnerKey` keeps,
 * beside it, whose code it is.
 */
export const deviceKey = (site: Site, userName: string): string => `mfa-${site}-${foldAscii(userName)}`;

/**
 * Beside a client's device key: the company whose user the kept code was accepted for, so one company's code is never
 * sent for another company's user of the same ID on a shared browser (requirements 10.11). It starts with no `mfa-`,
 * so no device key can spell it.
 */
export const deviceOwnerKey = (site: Site, userName: string): string => `mfaCompany-${site}-${foldAscii(userName)}`;

/** requirements 2.6: link-login `type` equal to `Vendor` means vendor; any other value means client. */
export const linkSite = (type: string | null): Site => (type === "Vendor" ? "vendor" : "client");

// The permission gates of requirements 6, each a named predicate over the user's permissions.
import type { UserInfo } from "#web/site.ts";

/**
 * The service codes the gates read, and the only ones a session keeps of the upstream's lists (server/account/permissions.ts):
 * a gate can name no other code (the types say so), so the session never trims away a code a gate needs.
 */
export const gatedServices = {
  clientServices: ["60542", "1894", "87286", "88689"],
  beneServices: ["60562"],
} as const;

type ServiceList = keyof typeof gatedServices;
const has = <L extends ServiceList>(u: UserInfo, list: L, code: (typeof gatedServices)[L][number]) =>
  Boolean(u[list]?.includes(code));
const tier = (value: string | undefined) => Number(value ?? 0) > 0;

export const gates = {
  notViewOnly: (u: UserInfo) => !u.viewOnly,
  hasService60542: (u: UserInfo) => has(u, "clientServices", "60542"),
  lacksService1894: (u: UserInfo) => !has(u, "clientServices", "1894"),
  paymentTierNotViewOnly: (u: UserInfo) => Boolean(u.paymentTier) && !u.viewOnly,
  hasService87286: (u: UserInfo) => has(u, "clientServices", "87286"),
  isAdmin: (u: UserInfo) => u.isAdmin,
  vipTier: (u: UserInfo) => tier(u.vipTier),
  vipTierAndService88689: (u: UserInfo) => tier(u.vipTier) && has(u, "clientServices", "88689"),
  spotTier: (u: UserInfo) => Boolean(u.spotTier),
  userTier: (u: UserInfo) => tier(u.userTier),
  hasBeneService60562: (u: UserInfo) => has(u, "beneServices", "60562"),
} satisfies Record<string, (u: UserInfo) => boolean>;

export type GateName = keyof typeof gates;

/** How each gate reads in requirements 6, for docs and test names. */
export const gateDescriptions: Record<GateName, string> = {
  notViewOnly: "not viewOnly",
  hasService60542: "clientServices has 60542",
  lacksService1894: "hidden when clientServices has 1894",
  paymentTierNotViewOnly: "paymentTier and not viewOnly",
  hasService87286: "clientServices has 87286",
  isAdmin: "isAdmin",
  vipTier: "vipTier > 0",
  vipTierAndService88689: "vipTier > 0 and clientServices has 88689",
  spotTier: "spotTier",
  userTier: "userTier > 0",
  hasBeneService60562: "beneServices has 60562",
};

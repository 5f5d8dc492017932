// A user with no permission at all, and one with chosen permissions: the starting point of every gate test.
import type { UserInfo } from "#web/site.ts";

export const noPermissions: UserInfo = {
  loaded: true,
  viewOnly: false,
  isAdmin: false,
  clientServices: [],
  beneServices: [],
  paymentTier: false,
  spotTier: false,
  vipTier: "0",
  userTier: "0",
};

export const permissionsWith = (changes: Partial<UserInfo>): UserInfo => ({ ...noPermissions, ...changes });

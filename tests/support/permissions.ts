// A user with no permission at all, and one with chosen permissions: the starting point of every gate test.
import { noPermissions as sandboxNoPermissions } from "#sandbox/seed.ts";
import type { UserInfo } from "#web/site.ts";

// The sandbox's own starting point, so the gate tests and the seed users cannot drift apart.
export const noPermissions: UserInfo = { loaded: true, ...sandboxNoPermissions };

export const permissionsWith = (changes: Partial<UserInfo>): UserInfo => ({ ...noPermissions, ...changes });

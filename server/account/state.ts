// The account-security state every route reaches through the app: each person's security activity and trusted
// browsers (each session's record is the ledger's, `app.ledger`).
import type { FastifyRequest } from "fastify";
import type { ActivityStore } from "#server/stores/activity.ts";
import type { TrustedDevices } from "#server/stores/trusted-devices.ts";

export type AccountState = {
  activity: ActivityStore;
  /** The browsers that skip the MFA code, per person. */
  devices: TrustedDevices;
  now: () => number;
  /** The idle limit and the time a session's `seen` may lag behind it: a session not seen within it has ended. */
  liveMs: number;
};

declare module "fastify" {
  interface FastifyInstance {
    /** Every app has its stores (a test's are in memory): there is no app without them. */
    account: AccountState;
  }
}

export const accountOf = (request: FastifyRequest): AccountState => request.server.account;

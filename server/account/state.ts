// The account-security state every route reaches through the app: the session registry and each person's security
// activity (the revocations that end a session on every replica are the app's own, `app.revocations`).
import type { FastifyRequest } from "fastify";
import type { ActivityStore } from "#server/stores/activity.ts";
import type { PersonMarks } from "#server/stores/person-marks.ts";
import type { SessionRegistry } from "#server/stores/session-registry.ts";
import type { TrustedDevices } from "#server/stores/trusted-devices.ts";

export type AccountState = {
  sessions: SessionRegistry;
  activity: ActivityStore;
  /** The browsers that skip the MFA code, per person. */
  devices: TrustedDevices;
  /** "Sessions begun before T are ended", per person: checked on every request of a signed-in session. */
  marks: PersonMarks;
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

// The account-security state every route reaches through the app: the session registry, each person's security
// activity, and the revocations that end a session on every replica.
import type { FastifyRequest } from "fastify";
import type { ActivityStore } from "#server/stores/activity.ts";
import type { RevocationStore } from "#server/stores/revocations.ts";
import type { SessionRegistry } from "#server/stores/session-registry.ts";

export type AccountState = {
  sessions: SessionRegistry;
  activity: ActivityStore;
  revocations: Pick<RevocationStore, "revoke" | "has">;
  now: () => number;
  /** The idle limit: a session not seen within it (and the minute `seen` may lag) has ended, listed or not. */
  idleMs: number;
};

declare module "fastify" {
  interface FastifyInstance {
    /** Unset in an app built without the stores (a bare test app): nothing is registered or recorded then. */
    account?: AccountState;
  }
}

export const accountOf = (request: FastifyRequest): AccountState | undefined => request.server.account;

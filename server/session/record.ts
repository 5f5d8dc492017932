// What the portal knows of one session: its record in the ledger (server/stores/ledger.ts), keyed by the random id its
// cookie carries. "Is it alive?" and "why did it end?" are read here and nothing else.
import type { EndReason } from "#web/protocol/session-end.ts";
import type { LoginMessage, Site, UserInfo } from "#web/site.ts";

/** The upstream token and who it belongs to. `pending` until a `Passed` MFA validation promotes it. */
export type Auth = {
  stage: "pending" | "signed-in";
  site: Site;
  userName: string;
  loginMessage: LoginMessage;
  token: string;
  /** The company short name a client signed in with, or its link's answer named (empty for vendors). */
  company?: string;
  /**
   * The upstream did not say whose account this session opened (a link answer without the user, or a client's without
   * its company): the session is a person of its own by this random id (server/account/person.ts).
   */
  alone?: string;
  /**
   * The sign-in answer's message was none the portal knows (requirements 9 lists three): the account's state was not
   * told, so no section opens before the permissions call succeeds with the token (docs/decisions.md).
   */
  untold?: true;
};

/** How a session ended, once: the ending is written when it happens and never again. */
export type Ending = { at: number; reason: EndReason };

export type SessionRecord = {
  /** Whose it is (server/account/person.ts), for the person's list of sessions. */
  person: string;
  auth: Auth;
  /** When it began (absolute lifetime) and a person last acted in it (idle timeout), in ms on the app's clock. */
  born: number;
  seen: number;
  /** Where it was signed in, for "Where you're signed in": the device's label, the address, the time zone. */
  device: string;
  address: string;
  timeZone?: string;
  perms?: { info: UserInfo; at: number };
  /** Signed in at /tax-bridge/login: in that mode until it ends. */
  taxBridge?: true;
  /** When the current password last passed the test call: the change call needs one, once (SECURITY.md). */
  passwordTested?: number;
  /** What the last request to end other sessions did, for the page it leads back to, once. */
  endResult?: { outcome: string; count?: number };
  /** When the last MFA code was sent for this pending sign-in: a reload within the cooldown sends none. */
  codeSentAt?: number;
  /** The previous tracked path (requirements 4.8). */
  previousPage?: string;
  ended?: Ending;
};

// Who a person is, as the upstream says: the one key every store keyed by a person uses (the session ledger's person index, security
// activity, throttles, known addresses, device cookie), folded and joined as web/protocol/person-key.ts says (the
// browser's device key of the MFA code reads the same fold).
import { hash } from "node:crypto";
import { personKey } from "#web/protocol/person-key.ts";

/**
 * Whose a session is. `alone` is set when the upstream did not say whose account it opened (a client's link sign-in
 * whose answer names no company): the session is then a person of its own, tied to no one else's list, activity or
 * budget, and its owner is told so.
 */
export type Owner = { site: string; company?: string | undefined; userName: string; alone?: string | undefined };

/** The key of a session's person; a session on its own gets a key no typed identity can spell (`:` is escaped in every part of `personKey`). */
export const personOf = (owner: Owner): string =>
  owner.alone ? `${owner.site}:alone:${owner.alone}` : personKey(owner.site, owner.company, owner.userName);

/** The person a request's session belongs to (pending or signed in); undefined without one. */
export const sessionPerson = (request: { auth?: Owner | undefined }): string | undefined =>
  request.auth && personOf(request.auth);

/**
 * A name as the logs may show it before the upstream accepted it: a digest, so a password typed into the user ID field
 * never reaches a log line, while one name's attempts still read as one.
 */
export const nameDigest = (name: string): string => `#${hash("sha256", name, "base64url").slice(0, 16)}`;

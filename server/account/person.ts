// Who a person is, as the upstream says: the one key every store keyed by a person uses (session registry, security
// activity, throttles, known addresses, device cookie), compared as the upstream compares its identities.
import { hash } from "node:crypto";

/**
 * The upstream matches company short names and user IDs without regard to ASCII case, and no other case: `ALICE` is
 * `alice`, but `Kelvin` spelled with U+212A is not `kelvin` (no Unicode case folding). Surrounding ASCII blanks are
 * dropped too: an upstream that ignores them names the same account, and one that does not never accepts the padded
 * spelling, so no session is filed under it (and a throttle only counts it with the bare one).
 */
export const foldAscii = (text: string) =>
  text.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, "").replace(/[A-Z]/g, (letter) => letter.toLowerCase());

/**
 * The key of the person a request names or a session belongs to: its parts folded as above and each escaped, so no
 * choice of company and user ID can spell another pair's key (`a/b` + `c` is not `a` + `b/c`).
 */
export const personKey = (...parts: (string | undefined)[]) =>
  parts.map((part) => encodeURIComponent(foldAscii(part ?? ""))).join("/");

/**
 * Whose a session is. `alone` is set when the upstream did not say whose account it opened (a client's link sign-in
 * whose answer names no company): the session is then a person of its own, tied to no one else's list, activity or
 * budget, and its owner is told so.
 */
export type Owner = { site: string; company?: string | undefined; userName: string; alone?: string | undefined };

/** The key of a session's person; a session on its own gets a key no typed identity can spell (`:` is escaped above). */
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

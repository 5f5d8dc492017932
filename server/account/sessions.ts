// A person's sessions through their life: registered at sign-in, marked seen (at most once a minute), removed when
// they end, listed for "Where you're signed in", and ended from another device or by a password change.

import type { FastifyRequest } from "fastify";
import { type Owner, personOf } from "#server/account/person.ts";
import { securityEvent, sessionDigest } from "#server/account/security-log.ts";
import { type AccountState, accountOf } from "#server/account/state.ts";
import { clientAddress } from "#server/security/address-key.ts";
import { deviceLabel } from "#server/security/device-label.ts";
import { ownEndEvent } from "#server/session/why-ended.ts";
import type { SessionEntry } from "#server/stores/session-registry.ts";
import { knownTimeZone } from "#web/components/when.ts";
import { TIME_ZONE_HEADER } from "#web/protocol/headers.ts";
import type { EndReason } from "#web/protocol/session-end.ts";

/**
 * A signed-in session begins: listed, and the oldest past the bound ends on every replica. Sessions already revoked
 * leave the list first, so the bound never ends a live session in an ended one's place.
 */
export function registerSession(request: FastifyRequest, owner: Owner, sid: string, now: number): void {
  const account = accountOf(request);
  const person = personOf(owner);
  const entry: SessionEntry = {
    sid,
    began: now,
    seen: now,
    device: deviceLabel(request.headers["user-agent"]),
    address: clientAddress(request),
  };
  const zone = request.headers[TIME_ZONE_HEADER.toLowerCase()];
  if (typeof zone === "string" && zone.length <= 64 && knownTimeZone(zone) === zone) entry.timeZone = zone;
  void pruneEnded(request, person, account).then(async (listed) => {
    for (const old of await account.sessions.add(person, entry)) {
      await request.server.revocations.revoke(old);
      const where = listed.get(old);
      securityEvent(
        request,
        "session-ended.limit",
        person,
        old,
        where && { device: where.device, address: where.address },
      );
    }
  });
}

export function sessionSeen(request: FastifyRequest, owner: Owner, sid: string, now: number): void {
  void accountOf(request).sessions.seen(personOf(owner), sid, now);
}

/**
 * A session ended (its id is revoked by the caller): it leaves the list, and the log says why when its own request
 * records the ending (server/session/why-ended.ts, the one table of endings).
 */
export function sessionEnded(request: FastifyRequest, owner: Owner, sid: string, reason: EndReason): void {
  const person = personOf(owner);
  void accountOf(request).sessions.remove(person, sid);
  const event = ownEndEvent(reason);
  if (event) securityEvent(request, event, person, sid);
}

/** A session neither revoked nor idle past the limit (its own next request would end it: it is not listed or counted). */
const live = (request: FastifyRequest, account: AccountState, entry: SessionEntry) =>
  !request.server.revocations.has(entry.sid) && account.now() - entry.seen <= account.liveMs;

/**
 * The person's revoked sessions leave their list; the others are answered, by id. One that only looks idle stays: its registry clock may lag, and
 * "Sign out of all other devices" must still find it.
 */
async function pruneEnded(
  request: FastifyRequest,
  person: string,
  account: AccountState,
): Promise<Map<string, SessionEntry>> {
  const { sessions } = await account.sessions.list(person);
  const kept = new Map<string, SessionEntry>();
  for (const entry of sessions)
    if (request.server.revocations.has(entry.sid)) await account.sessions.remove(person, entry.sid);
    else kept.set(entry.sid, entry);
  return kept;
}

/** One row of "Where you're signed in": the session named by its digest, never by its id. */
export type ListedSession = Omit<SessionEntry, "sid"> & { id: string; current: boolean };
export type ListedSessions = { sessions: ListedSession[]; complete: boolean; trimmed: boolean };

/** The person's live sessions, newest first, the request's own marked; never the ended ones. */
export async function listSessions(request: FastifyRequest, owner: Owner, sid: string | undefined) {
  const account = accountOf(request);
  const list = await account.sessions.list(personOf(owner));
  const sessions = list.sessions
    .filter((entry) => entry.sid === sid || live(request, account, entry))
    .map(({ sid: id, ...entry }) => ({ ...entry, id: sessionDigest(id), current: id === sid }));
  return { sessions, complete: list.complete, trimmed: list.trimmed } satisfies ListedSessions;
}

/** What ending other sessions did: how many this replica ended, and whether the ending is still on its way. */
export type Ended = {
  count: number;
  /** "All" while Redis could not take the person's mark: sessions this replica does not know end when it returns. */
  onItsWay: boolean;
};

/**
 * Ends the person's sessions other than `sid`: the one named by `id` (its digest), or all. Answers how many ended;
 * an id that is not one of the person's other live sessions ends nothing and answers undefined. "All" also marks the
 * person (sessions begun before now are ended, but this one): every replica then ends the sessions it alone knows,
 * those signed in while Redis was away included.
 */
export async function endOtherSessions(
  request: FastifyRequest,
  owner: Owner,
  sid: string,
  which: { id: string } | "all",
  event: "session-ended.by-person" | "session-ended.password-changed" | "session-ended.password-reset",
): Promise<Ended | undefined> {
  const account = accountOf(request);
  const person = personOf(owner);
  const shared = which === "all" ? account.marks.mark(person, { before: account.now(), except: sid }) : true;
  const { sessions } = await account.sessions.list(person);
  // Every session of the list but this one, whatever its "last seen": a session whose registry clock lagged is still
  // one of the person's, and ending it is what was asked (an ended one is only revoked again).
  const others = sessions.filter((entry) => entry.sid !== sid && !request.server.revocations.has(entry.sid));
  const ending = which === "all" ? others : others.filter((entry) => sessionDigest(entry.sid) === which.id);
  if (which !== "all" && ending.length === 0) return undefined;
  // Side by side: ending twenty sessions takes one round trip to the stores, not twenty.
  await Promise.all(
    ending.map(async (entry) => {
      await Promise.all([request.server.revocations.revoke(entry.sid), account.sessions.remove(person, entry.sid)]);
      securityEvent(request, event, person, entry.sid, { device: entry.device, address: entry.address });
    }),
  );
  return { count: ending.length, onItsWay: !(await shared) };
}

/**
 * The upstream set the person's password by a reset: the reset is in their activity, and every session of theirs ends
 * at once (its next request is signed out; "Where you're signed in" no longer lists it), and every trusted browser is
 * forgotten. Answers how many ended.
 */
export async function passwordWasReset(request: FastifyRequest, owner: Owner): Promise<number> {
  securityEvent(request, "password.reset", personOf(owner));
  await passwordSet(request, owner);
  return (await endOtherSessions(request, owner, "", "all", "session-ended.password-reset"))?.count ?? 0;
}

/** A password changed or reset: every browser that skipped the code for the person asks for one again (issue 41). */
export async function passwordSet(request: FastifyRequest, owner: Owner): Promise<void> {
  await accountOf(request).devices.forget(personOf(owner), "all");
}

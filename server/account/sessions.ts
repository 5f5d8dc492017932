// A person's sessions, as the ledger holds them (server/stores/ledger.ts): the bound on how many a person keeps,
// "Where you're signed in", and ending them from another device, by a password change or by a reset.
import type { FastifyRequest } from "fastify";
import { type Owner, personOf } from "#server/account/person.ts";
import { securityEvent, sessionDigest } from "#server/account/security-log.ts";
import { endSession } from "#server/session/lifecycle.ts";
import type { SessionRecord } from "#server/session/record.ts";

/** Signed-in sessions kept per person: past this the oldest ends. */
export const SESSIONS_PER_PERSON = 20;

const signedInLive = ([, record]: [string, SessionRecord]) => !record.ended && record.auth.stage === "signed-in";

/**
 * A signed-in session began: the person's oldest past the bound end (not awaited: the sign-in does not wait). While
 * Redis is away the bound waits for it: a replica's own copy of the list is no ground to end a live session.
 */
export function sessionBegan(request: FastifyRequest, person: string): void {
  const bound = async () => {
    const { sessions, complete } = await request.server.ledger.of(person);
    if (!complete) return request.server.ledger.afterOutage(bound);
    const over = sessions.filter(signedInLive).slice(SESSIONS_PER_PERSON);
    await Promise.all(over.map(([id, record]) => endSession(request, id, record, "limit")));
  };
  void bound();
}

/** One row of "Where you're signed in": the session named by its digest, never by its id. */
export type ListedSession = {
  id: string;
  current: boolean;
  began: number;
  seen: number;
  device: string;
  address: string;
  timeZone?: string;
};
export type ListedSessions = { sessions: ListedSession[]; complete: boolean; trimmed: boolean };

/**
 * The person's live signed-in sessions, newest first, the request's own marked. One past its idle limit by its record
 * (its own next request would end it) is not listed; `trimmed` once the bound ended one of them.
 */
export async function listSessions(request: FastifyRequest, owner: Owner, sid: string | undefined) {
  const account = request.server.account;
  const { sessions, complete } = await request.server.ledger.of(personOf(owner));
  const listed = sessions
    .filter((entry) => signedInLive(entry) && (entry[0] === sid || account.now() - entry[1].seen <= account.liveMs))
    .map(([id, { born, seen, device, address, timeZone }]) => ({
      id: sessionDigest(id),
      current: id === sid,
      began: born,
      seen,
      device,
      address,
      ...(timeZone ? { timeZone } : {}),
    }));
  const trimmed = sessions.some(([, record]) => record.ended?.reason === "limit");
  return { sessions: listed, complete, trimmed } satisfies ListedSessions;
}

/** What ending other sessions did: how many ended, and whether Redis could not be asked for all of them. */
export type Ended = { count: number; onItsWay: boolean };

type OthersReason = "ended-elsewhere" | "password-changed" | "password-reset";

/**
 * Ends the person's sessions other than `sid`: the one named by `id` (its digest), or all begun before now, pending
 * sign-ins included. Answers how many ended; an id that is not one of the person's other live sessions ends nothing
 * and answers undefined. "All" asked while Redis is away ends what this replica knows now, and the rest once Redis
 * returns (`onItsWay`).
 */
export async function endOtherSessions(
  request: FastifyRequest,
  owner: Owner,
  sid: string,
  which: { id: string } | "all",
  reason: OthersReason,
): Promise<Ended | undefined> {
  const before = request.server.account.now();
  const ended = await endOthers(request, personOf(owner), sid, which, reason, before);
  if (ended?.onItsWay && which === "all")
    request.server.ledger.afterOutage(
      async () => void (await endOthers(request, personOf(owner), sid, which, reason, before)),
    );
  return ended;
}

async function endOthers(
  request: FastifyRequest,
  person: string,
  sid: string,
  which: { id: string } | "all",
  reason: OthersReason,
  before: number,
): Promise<Ended | undefined> {
  const { sessions, complete } = await request.server.ledger.of(person);
  const others = sessions.filter(([id, record]) => id !== sid && !record.ended && record.born <= before);
  const ending = which === "all" ? others : others.filter(([id]) => sessionDigest(id) === which.id);
  if (which !== "all" && ending.length === 0) return undefined;
  await Promise.all(ending.map(([id, record]) => endSession(request, id, record, reason)));
  return { count: ending.filter(signedInLive).length, onItsWay: !complete };
}

/**
 * The upstream set the person's password by a reset: the reset is in their activity, and every session of theirs ends
 * at once, and every trusted browser is forgotten. Answers how many ended.
 */
export async function passwordWasReset(request: FastifyRequest, owner: Owner): Promise<number> {
  securityEvent(request, "password.reset", personOf(owner));
  await passwordSet(request, owner);
  return (await endOtherSessions(request, owner, "", "all", "password-reset"))?.count ?? 0;
}

/** A password changed or reset: every browser that skipped the code for the person asks for one again (issue 41). */
export async function passwordSet(request: FastifyRequest, owner: Owner): Promise<void> {
  await request.server.account.devices.forget(personOf(owner), "all");
}

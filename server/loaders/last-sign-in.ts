// The note on each section's home: when and from where the person last signed in before this session, the failed
// sign-in attempts the portal counted since (server/stores/failure-tallies.ts), and the sign-ins made elsewhere after
// this session's own; nothing on a first sign-in with none after it.
import type { FastifyRequest } from "fastify";
import { personOf } from "#server/account/person.ts";
import { sessionDigest, signInCompletions } from "#server/account/security-log.ts";
import { sessionId, sessionTimes, signedIn } from "#server/session/fields.ts";
import type { ActivityRecord } from "#server/stores/activity.ts";
import type { LastSignIn } from "#web/components/last-sign-in-note.tsx";
import { knownTimeZone } from "#web/components/when.ts";

const completions: ReadonlySet<string> = new Set(signInCompletions);

/** Which side of this session's own sign-in an event is on; undefined for that sign-in itself, or where unknown. */
type Side = (event: ActivityRecord, index: number) => "before" | "after" | undefined;

/**
 * Where this session's own sign-in sits among the person's events (newest first), found by the session's id, never
 * by a position: its own event, named by the session's digest; or, once newer events have pushed that out of the
 * kept list, the moment its record says it began. Undefined when neither is known.
 */
function sideOfOwnSignIn(events: ActivityRecord[], own: string, began: number | undefined): Side | undefined {
  const mine = events.findIndex((event) => completions.has(event.event) && event.session === own);
  if (mine !== -1) return (_event, index) => (index < mine ? "after" : index > mine ? "before" : undefined);
  if (began === undefined) return undefined;
  return (event) => {
    if (event.session === own || event.at === began) return undefined; // the same millisecond tells nothing
    if (event.at < began) return "before";
    // A sign-in after this one names its session; one kept without a name is this session's own, kept before names.
    return event.session === undefined ? undefined : "after";
  };
}

export async function loadLastSignIn(request: FastifyRequest, changePassword: string): Promise<LastSignIn | undefined> {
  const auth = signedIn(request);
  const account = request.server.account;
  const sid = sessionId(request);
  if (!auth || !sid) return undefined;
  const person = personOf(auth);
  const own = sessionDigest(sid);
  const { events, failures } = await account.activity.recent(person);
  const side = sideOfOwnSignIn(events, own, sessionTimes(request).born);
  if (!side) return undefined;
  const signIn = (event: ActivityRecord) => completions.has(event.event) && event.session !== own;
  const previous = events.find((event, index) => signIn(event) && side(event, index) === "before");
  const later = events
    .filter((event, index) => signIn(event) && side(event, index) === "after")
    .map(({ at, device }) => ({ at, device }));
  if (!previous && later.length === 0) return undefined;
  // Failed attempts since the sign-in named as the last, whatever sign-ins came after it: never listed, so none
  // pushes it out; without it, "since then" names nothing.
  const failed = previous ? failures.since(previous.at).find(({ kind }) => kind === "sign-in.failed") : undefined;
  return {
    ...(previous ? { previous: { at: previous.at, device: previous.device } } : {}),
    later,
    failures: failed && { count: failed.count, addresses: failed.addresses, moreAddresses: failed.moreAddresses },
    timeZone: knownTimeZone(request.record?.value.timeZone),
    changePassword,
  };
}

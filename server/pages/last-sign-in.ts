// The note on each section's home: when and from where the person last signed in before this session, and the failed
// sign-in attempts the portal counted since (server/stores/failure-tallies.ts); nothing on a first sign-in.
import type { FastifyRequest } from "fastify";
import { personOf } from "#server/account/person.ts";
import { signInCompletions } from "#server/account/security-log.ts";
import { accountOf } from "#server/account/state.ts";
import { sessionId, signedIn } from "#server/session/standing.ts";
import type { LastSignIn } from "#web/components/last-sign-in-note.tsx";
import { knownTimeZone } from "#web/components/when.ts";

const completions: ReadonlySet<string> = new Set(signInCompletions);

export async function loadLastSignIn(request: FastifyRequest, changePassword: string): Promise<LastSignIn | undefined> {
  const auth = signedIn(request);
  const account = accountOf(request);
  if (!auth || !account) return undefined;
  const person = personOf(auth);
  const sid = sessionId(request);
  const [{ events, failures }, { sessions }] = await Promise.all([
    account.activity.recent(person),
    account.sessions.list(person),
  ]);
  // Newest first: the first completed sign-in is this session's own, the next one the last before it. The failures
  // are never listed, so none pushes it out; they are counted from it on.
  const previous = events.filter((event) => completions.has(event.event))[1];
  if (!previous) return undefined;
  const failed = failures.sincePrevious.find(({ kind }) => kind === "sign-in.failed");
  const zone = sessions.find((session) => session.sid === sid)?.timeZone;
  return {
    at: previous.at,
    device: previous.device,
    failures: failed && { count: failed.count, addresses: failed.addresses, moreAddresses: failed.moreAddresses },
    timeZone: knownTimeZone(zone),
    changePassword,
  };
}

// The note on each section's home: when and from where the person last signed in before this session, and the failed
// sign-in attempts the portal saw since; nothing on a first sign-in.
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
  const [{ events }, { sessions }] = await Promise.all([
    account.activity.recent(person),
    account.sessions.list(person),
  ]);
  // Newest first: the first completed sign-in is this session's own, the next one the last before it.
  const signIns = events.flatMap((event, index) => (completions.has(event.event) ? [index] : []));
  const previousIndex = signIns[1];
  const previous = previousIndex === undefined ? undefined : events[previousIndex];
  if (!previous) return undefined;
  const failures = events.slice(0, previousIndex).filter(({ event }) => event === "sign-in.failed").length;
  const zone = sessions.find((session) => session.sid === sid)?.timeZone;
  return { at: previous.at, device: previous.device, failures, timeZone: knownTimeZone(zone), changePassword };
}

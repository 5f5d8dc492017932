// What the change-password page shows below its form: the person's sessions and recent activity (its failures counted),
// and what the last request to end sessions did (carried back in the address, as the sign-out notice is).

import type { FastifyRequest } from "fastify";
import { personOf } from "#server/account/person.ts";
import { listSessions } from "#server/account/sessions.ts";
import type { AppContext } from "#server/context.ts";
import { sessionId, signedIn } from "#server/session/fields.ts";
import { takeEndResult } from "#server/session/writes.ts";
import type { ActivityList } from "#server/stores/activity.ts";
import { deviceDigest } from "#server/stores/trusted-devices.ts";
import type { AccountView, ActivityRow } from "#web/components/account-sections.tsx";
import type { NoteKind } from "#web/components/note.tsx";
import { ACTIVITY_SECTION_ID, DEVICES_SECTION_ID, SESSIONS_SECTION_ID } from "#web/components/use-account-sections.ts";
import { knownTimeZone } from "#web/components/when.ts";
import { accountTexts } from "#web/texts/account.ts";

/** Where the forms post (server/routes/account.ts). */
export const END_SESSIONS_PATH = "/session/sign-out-others";
export const FORGET_DEVICES_PATH = "/session/forget-devices";

/** "Recent security activity" shows this many rows, and as many more for each "Show more" (`?activity=20`). */
export const ACTIVITY_PAGE = 10;
const ACTIVITY_SHOWN_MAX = 100;

/** How many activity rows the address asks for: a multiple of the page, at least one page, at most the bound. */
function activityShown(url: string): number {
  const asked = Number(new URL(url, "http://portal.invalid").searchParams.get("activity"));
  if (!Number.isSafeInteger(asked) || asked < ACTIVITY_PAGE) return ACTIVITY_PAGE;
  return Math.min(ACTIVITY_SHOWN_MAX, Math.ceil(asked / ACTIVITY_PAGE) * ACTIVITY_PAGE);
}

/** What an end request did, as its answer's address says it: `?sessions=<outcome>[&count=n]`. */
export type EndOutcome =
  | "ended"
  | "ending"
  | "changed"
  | "wrong-password"
  | "password-required"
  | "unknown"
  | "throttled"
  | "failed"
  | "forgotten"
  | "forgotten-this";

function outcomeQuery(outcome: EndOutcome, count?: number): string {
  return `sessions=${outcome}${count === undefined ? "" : `&count=${count}`}`;
}

/**
 * The answer's address: the page at "Where you're signed in", where the person acted (its note takes the focus when the
 * page's script runs; without it the fragment alone scrolls there).
 */
export function outcomeAddress(page: string, outcome: EndOutcome, count?: number): string {
  const section = outcome.startsWith("forgotten") ? DEVICES_SECTION_ID : SESSIONS_SECTION_ID;
  return `${page}?${outcomeQuery(outcome, count)}#${section}`;
}

/**
 * The note for what the last request to end sessions did, from the session's one-time record (`takeEndResult`), never
 * from the address: a link carrying `?sessions=ended&count=7` shows nothing.
 */
function resultOf(
  record: { outcome: string; count?: number } | undefined,
): { kind: NoteKind; text: string } | undefined {
  if (!record) return undefined;
  const count = record.count ?? 0;
  const number = Number.isSafeInteger(count) && count >= 0 && count <= 100_000 ? count : 0;
  switch (record.outcome) {
    case "ended":
      return { kind: "success", text: accountTexts.ended(number) };
    case "ending":
      return { kind: "info", text: accountTexts.ending(number) };
    case "wrong-password":
      return { kind: "error", text: accountTexts.wrongPassword };
    case "password-required":
      return { kind: "error", text: accountTexts.passwordRequired };
    case "unknown":
      return { kind: "error", text: accountTexts.unknownSession };
    case "throttled":
      return { kind: "error", text: accountTexts.throttled(Math.max(1, number)) };
    case "failed":
      return { kind: "error", text: accountTexts.failed };
    case "forgotten":
      return { kind: "success", text: accountTexts.forgotten(number) };
    case "forgotten-this":
      return { kind: "success", text: accountTexts.forgottenThis };
    default:
      return undefined;
  }
}

export async function loadAccountView(
  context: AppContext,
  request: FastifyRequest,
  returnPath: string,
): Promise<AccountView | undefined> {
  const auth = signedIn(request);
  const account = request.server.account;
  if (!auth) return undefined;
  const person = personOf(auth);
  const [listed, activity, trusted] = await Promise.all([
    listSessions(request, auth, sessionId(request)),
    account.activity.recent(person),
    account.devices.list(person),
  ]);
  const current = listed.sessions.find((session) => session.current);
  const recorded = takeEndResult(request);
  const result = resultOf(recorded);
  // This browser's entry, by its device cookie's id for this person: a cookie of another person's names none of these.
  const mine = context.devices.deviceOf(request, person);
  const thisOne = mine ? deviceDigest(mine) : undefined;
  return {
    timeZone: knownTimeZone(current?.timeZone),
    action: END_SESSIONS_PATH,
    forgetAction: FORGET_DEVICES_PATH,
    devices: trusted.devices.map(({ id, device, address, first, last }) => ({
      id,
      device,
      address,
      first,
      last,
      current: id === thisOne,
    })),
    devicesComplete: trusted.complete,
    returnPath,
    sessions: listed.sessions.map(({ id, device, address, began, seen, current: mine }) => ({
      id,
      device,
      address,
      began,
      seen,
      current: mine,
    })),
    sessionsComplete: listed.complete,
    trimmed: listed.trimmed,
    ...(auth.alone ? { alone: true } : {}),
    ...(result ? { result, resultAt: recorded?.outcome.startsWith("forgotten") ? "devices" : "sessions" } : {}),
    ...activityPage(activityRows(activity), activityShown(request.url), returnPath),
    activityComplete: activity.complete,
  };
}

/** The rows shown, newest first, and the address of the next page when more are kept: a link, so no script is needed. */
function activityPage(rows: ActivityRow[], shown: number, page: string) {
  const more =
    rows.length > shown ? { moreActivity: `${page}?activity=${shown + ACTIVITY_PAGE}#${ACTIVITY_SECTION_ID}` } : {};
  return { activity: rows.slice(0, shown), ...more };
}

/**
 * The events and, among them by their latest failure, one row per kind of failure and period (from a sign-in to the
 * next), newest first; a period's rows stay while it is kept, older than the oldest listed event or not (issue 30).
 */
function activityRows({ events, failures }: ActivityList): ActivityRow[] {
  const counted = failures.periods.flatMap(({ tallies }) =>
    tallies.map(({ kind, count, addresses, moreAddresses, first, last, device, address }) => ({
      event: kind,
      at: last,
      device,
      address,
      counted: { count, addresses, moreAddresses, first },
    })),
  );
  const rows: ActivityRow[] = events.map(({ event, at, device, address }) => ({ event, at, device, address }));
  return [...rows, ...counted].sort((a, b) => b.at - a.at);
}

// Each person's recent security events ("Recent security activity"): a per-person list of the newest events
// (server/stores/person-lists.ts, in memory or shared through Redis), each kept for the retention, and beside it the
// failures anyone may repeat at will, counted (server/stores/failure-tallies.ts), so that they never push an event out.
import { randomBytes } from "node:crypto";
import { storedLabel } from "#server/security/device-label.ts";
import type { Failure, FailureList, FailureTallies } from "#server/stores/failure-tallies.ts";
import { ACTIVITY_PER_PERSON } from "#server/stores/memory-bounds.ts";
import type { ListKind, PersonLists } from "#server/stores/person-lists.ts";

/**
 * What is kept of one event: never a token, a password, a code or a session id. `session` is the digest of the session
 * the event is about (as the log line names it): how a session finds its own sign-in among the person's.
 */
export type ActivityRecord = { event: string; at: number; device: string; address: string; session?: string };
export type ActivityList = { events: ActivityRecord[]; failures: FailureList; complete: boolean };

/** People whose events are kept per process; the least recently active go first. */
export const ACTIVITY_PEOPLE_MAX = 50_000;

/** The activity's list: each event kept for `retentionMs` (SECURITY_LOG_DAYS). */
export const activityListKind = (retentionMs: number): ListKind<ActivityRecord> => ({
  name: "events",
  perPerson: ACTIVITY_PER_PERSON,
  peopleMax: ACTIVITY_PEOPLE_MAX,
  keepMs: retentionMs,
  timeOf: (record) => record.at,
  parse: parseRecord,
});

let sequence = 0;
/**
 * An event's id: unique across replicas, and greater for each later event of this process, so that events of the
 * same millisecond are listed in the order they came.
 */
const eventId = () => `${(sequence++).toString(36).padStart(10, "0")}-${randomBytes(4).toString("hex")}`;

/** A person is `personKey(site, company, user)`. Never rejects. */
export class ActivityStore {
  constructor(
    private readonly lists: PersonLists<ActivityRecord>,
    private readonly failures: FailureTallies,
  ) {}

  /** `knownOnly`: kept only for a person who has events already (a sign-in naming a deactivated account). */
  async record(person: string, record: ActivityRecord, knownOnly = false): Promise<void> {
    await this.lists.add(person, eventId(), record, { onlyIfListed: knownOnly });
  }

  /** A completed sign-in: listed, and the failures counted from now on are a period of their own. */
  async signedIn(person: string, record: ActivityRecord): Promise<void> {
    await Promise.all([this.record(person, record), this.failures.signedIn(person, record.at)]);
  }

  /** A failure anyone may repeat: counted, never listed. `knownOnly`: only for a person with activity already. */
  async failed(person: string, failure: Failure, knownOnly: boolean): Promise<void> {
    await this.failures.count(person, failure, knownOnly);
  }

  /** Newest first, none older than the retention; the failures counted per period (from a sign-in to the next). */
  async recent(person: string): Promise<ActivityList> {
    const [{ items, complete }, failures] = await Promise.all([this.lists.list(person), this.failures.list(person)]);
    return { events: items.map(({ item }) => item), failures, complete: complete && failures.complete };
  }
}

function parseRecord(stored: unknown): ActivityRecord | undefined {
  const { event, at, device, address, session } = (stored ?? {}) as Partial<ActivityRecord>;
  if (typeof event !== "string" || typeof at !== "number" || typeof device !== "string") return undefined;
  // An event kept before sessions were named in the activity has none.
  const about = typeof session === "string" ? { session } : {};
  return { event, at, device: storedLabel(device), address: typeof address === "string" ? address : "", ...about };
}

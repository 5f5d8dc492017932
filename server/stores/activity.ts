// Each person's recent security events ("Recent security activity"): the interface, and the in-memory store.
import { LRUCache } from "lru-cache";
import { bounded, clockOf } from "#server/stores/memory-bounds.ts";

/** What is kept of one event: never a token, a password, a code or a session id. */
export type ActivityRecord = { event: string; at: number; device: string; address: string };
export type ActivityList = { events: ActivityRecord[]; complete: boolean };

/** Events kept per person: the newest. */
export const ACTIVITY_PER_PERSON = 20;
/** People whose events are kept per process; the least recently active go first. */
export const ACTIVITY_PEOPLE_MAX = 50_000;

/** A person is `personKey(site, company, user)`. Never rejects. */
export interface ActivityStore {
  /** `knownOnly`: kept only for a person who has events already (a failed sign-in may name anyone). */
  record(person: string, record: ActivityRecord, knownOnly?: boolean): Promise<void>;
  /** Newest first, none older than the retention. */
  recent(person: string): Promise<ActivityList>;
}

export class MemoryActivity implements ActivityStore {
  readonly #people: LRUCache<string, ActivityRecord[]>;
  readonly #now: () => number;

  /** `retentionMs`: how long an event is kept (SECURITY_LOG_DAYS). */
  constructor(
    private readonly retentionMs: number,
    now?: () => number,
    max = ACTIVITY_PEOPLE_MAX,
  ) {
    this.#now = now ?? Date.now;
    this.#people = new LRUCache<string, ActivityRecord[]>({
      ...bounded(max),
      ttl: retentionMs,
      ttlResolution: 0,
      perf: clockOf(now),
    });
  }

  async record(person: string, record: ActivityRecord, knownOnly = false): Promise<void> {
    this.recordNow(person, record, knownOnly);
  }

  recordNow(person: string, record: ActivityRecord, knownOnly = false): void {
    if (knownOnly && !this.#people.has(person)) return;
    const events = [{ ...record }, ...(this.#people.get(person) ?? [])].slice(0, ACTIVITY_PER_PERSON);
    this.#people.set(person, events);
  }

  async recent(person: string): Promise<ActivityList> {
    const oldest = this.#now() - this.retentionMs;
    const events = (this.#people.get(person) ?? []).filter(({ at }) => at > oldest).map((record) => ({ ...record }));
    return { events, complete: true };
  }
}

// The registry of each person's sessions: its interface, and the in-memory one that is correct for a single replica.
import { LRUCache } from "lru-cache";
import { bounded, clockOf } from "#server/stores/memory-bounds.ts";

/** One session of a person, as their "Where you're signed in" list shows it. */
export type SessionEntry = {
  sid: string;
  /** When it began and was last seen (ms on the app's clock; `seen` written at most once a minute). */
  began: number;
  seen: number;
  /** "Chrome on Windows": bowser's reading of the User-Agent, cut to a safe label. */
  device: string;
  address: string;
  /** The browser's time zone at sign-in (an IANA name), to write times in it. */
  timeZone?: string;
};

export type SessionList = {
  /** Newest first. */
  sessions: SessionEntry[];
  /** False when Redis could not answer: only what this replica knows. */
  complete: boolean;
  /** True once the bound ended an older session of this person. */
  trimmed: boolean;
};

/** Sessions kept per person: past this the oldest ends. */
export const SESSIONS_PER_PERSON = 20;
/** People whose sessions are kept per process; the least recently signed in go first. */
export const REGISTRY_PEOPLE_MAX = 50_000;

/** A person is `personKey(site, company, user)`, as the throttles count them. Never rejects. */
export interface SessionRegistry {
  /** Adds a session; answers the ids the bound pushed out (oldest first), which the caller ends. */
  add(person: string, entry: SessionEntry): Promise<string[]>;
  /** Last seen at `at`; nothing when the session is not listed (ended, or expired). */
  seen(person: string, sid: string, at: number): Promise<void>;
  remove(person: string, sid: string): Promise<void>;
  list(person: string): Promise<SessionList>;
}

type Person = { entries: Map<string, SessionEntry>; trimmed: boolean };

const newestFirst = (a: SessionEntry, b: SessionEntry) => b.began - a.began;

export class MemorySessionRegistry implements SessionRegistry {
  readonly #people: LRUCache<string, Person>;
  readonly #now: () => number;

  /** `lifetimeMs`: the session's absolute lifetime, after which an entry is dropped. */
  constructor(
    private readonly lifetimeMs: number,
    now?: () => number,
    max = REGISTRY_PEOPLE_MAX,
  ) {
    this.#now = now ?? Date.now;
    this.#people = new LRUCache<string, Person>({
      ...bounded(max),
      ttl: lifetimeMs,
      ttlResolution: 0,
      perf: clockOf(now),
    });
  }

  async add(person: string, entry: SessionEntry): Promise<string[]> {
    return this.addNow(person, entry);
  }

  /** The same, at once: the Redis registry keeps this replica's copy through it. */
  addNow(person: string, entry: SessionEntry): string[] {
    const state = this.#live(person) ?? { entries: new Map(), trimmed: false };
    state.entries.set(entry.sid, { ...entry });
    const dropped = [...state.entries.values()]
      .sort(newestFirst)
      .slice(SESSIONS_PER_PERSON)
      .map(({ sid }) => sid)
      .reverse();
    for (const sid of dropped) state.entries.delete(sid);
    if (dropped.length > 0) state.trimmed = true;
    this.#people.set(person, state); // the newest session's lifetime keeps the person
    return dropped;
  }

  async seen(person: string, sid: string, at: number): Promise<void> {
    const entry = this.#live(person)?.entries.get(sid);
    if (entry) entry.seen = at;
  }

  async remove(person: string, sid: string): Promise<void> {
    this.#live(person)?.entries.delete(sid);
  }

  async list(person: string): Promise<SessionList> {
    const state = this.#live(person);
    const sessions = state ? [...state.entries.values()].map((entry) => ({ ...entry })).sort(newestFirst) : [];
    return { sessions, complete: true, trimmed: state?.trimmed ?? false };
  }

  /** The person's state, without the entries past their session's lifetime. */
  #live(person: string): Person | undefined {
    const state = this.#people.get(person, { updateAgeOnGet: false });
    if (!state) return undefined;
    const oldest = this.#now() - this.lifetimeMs;
    for (const [sid, entry] of state.entries) if (entry.began <= oldest) state.entries.delete(sid);
    return state;
  }
}

// The registry of each person's sessions ("Where you're signed in"): a per-person list of their sessions by start
// (server/stores/person-lists.ts, in memory or shared through Redis), each kept for the session's absolute lifetime.
import { storedLabel } from "#server/security/device-label.ts";
import type { ListKind, PersonLists } from "#server/stores/person-lists.ts";

/** One session of a person, as their "Where you're signed in" list shows it. */
export type SessionEntry = {
  sid: string;
  /** When it began and was last seen (ms on the app's clock; `seen` written at most once a minute). */
  began: number;
  seen: number;
  /** "Chrome on Windows": bowser's reading of the User-Agent, named from a fixed list (server/security/device-label.ts). */
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

/** What the list holds of a session beside its id and "last seen". */
export type StoredSession = Omit<SessionEntry, "sid" | "seen">;

/** The registry's list: each session kept for `lifetimeMs`, the session's absolute lifetime. */
export const sessionListKind = (lifetimeMs: number): ListKind<StoredSession> => ({
  name: "sessions",
  revocable: true,
  perPerson: SESSIONS_PER_PERSON,
  peopleMax: REGISTRY_PEOPLE_MAX,
  keepMs: lifetimeMs,
  timeOf: (stored) => stored.began,
  parse: parseStored,
});

/** A person is `personKey(site, company, user)`, as the throttles count them. Never rejects. */
export class SessionRegistry {
  constructor(private readonly lists: PersonLists<StoredSession>) {}

  /** Adds a session; answers the ids the bound pushed out (oldest first), which the caller ends. */
  add(person: string, { sid, seen, ...stored }: SessionEntry): Promise<string[]> {
    return this.lists.add(person, sid, stored, { seen });
  }

  /** Last seen at `at`; nothing when the session is not listed (ended, or expired). */
  seen(person: string, sid: string, at: number): Promise<void> {
    return this.lists.seen(person, sid, at);
  }

  remove(person: string, sid: string): Promise<void> {
    return this.lists.remove(person, sid);
  }

  async list(person: string): Promise<SessionList> {
    const { items, complete, trimmed } = await this.lists.list(person);
    return { sessions: items.map(({ id, item, seen }) => ({ sid: id, ...item, seen })), complete, trimmed };
  }
}

function parseStored(stored: unknown): StoredSession | undefined {
  const value = (stored ?? {}) as Partial<StoredSession>;
  if (typeof value.began !== "number" || typeof value.device !== "string" || typeof value.address !== "string")
    return undefined;
  const timeZone = typeof value.timeZone === "string" ? { timeZone: value.timeZone } : {};
  return { began: value.began, device: storedLabel(value.device), address: value.address, ...timeZone };
}

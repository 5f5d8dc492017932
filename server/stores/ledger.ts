// The session ledger: one record per session id, the only truth about a session. Its interface, and the ledger kept in
// this process's memory (one replica: a restart ends every session). server/stores/ledger-redis.ts shares it.
import { LRUCache } from "lru-cache";
import type { Ending, SessionRecord } from "#server/session/record.ts";
import { expiring } from "#server/stores/memory-bounds.ts";

/** Answered by a Redis ledger for a session this replica does not hold while Redis cannot answer. */
export const UNAVAILABLE = "unavailable";

/** A person's sessions, newest first; `complete` is false when Redis could not answer (this replica's alone). */
export type PersonSessions = { sessions: Array<[string, SessionRecord]>; complete: boolean };

export interface SessionLedger {
  /** The record, from this replica's memory when it holds it (no round trip), else from Redis. Never rejects. */
  read(id: string): SessionRecord | undefined | Promise<SessionRecord | undefined | typeof UNAVAILABLE>;
  /** Keeps the record as it now stands. A write never undoes an ending: an ended record stays ended. */
  write(id: string, record: SessionRecord): void;
  /**
   * Ends the session, once: true when this call ended it, false when it had ended already (or is not known). The
   * record keeps its ending until its lifetime is over, so any copy of its cookie finds it ended. Never rejects.
   */
  end(id: string, ending: Ending): Promise<boolean>;
  /** The person's sessions, live and ended, newest first. Never rejects. */
  of(person: string): Promise<PersonSessions>;
  /**
   * Runs `task` once Redis has taken what this replica kept during an outage (a person's list read while it was away
   * was this replica's alone) and the other replicas have had the settling time to send theirs (`SETTLE_MS`). In
   * memory, never: its lists are always complete.
   */
  afterOutage(task: () => Promise<void>): void;
}

/**
 * Bytes of records kept per process (a token counts its characters, the rest of a record 1 KB): past it the least
 * recently used session goes first (docs/decisions.md, "The session ledger").
 */
export const LEDGER_MAX_BYTES = 96 * 1024 * 1024;
const RECORD_BYTES = 1024;
/**
 * How long a record is kept past its session's absolute lifetime: a request that comes just after it (a clock a
 * little ahead, a slow network) still finds the record and is told the lifetime ended, not that nothing is known.
 */
export const LINGER_MS = 15 * 60_000;
export const recordSize = (record: SessionRecord) => RECORD_BYTES + record.auth.token.length;

/** An ended record keeps only what its ending needs: whose it was and where (the token goes at once). */
export function endedRecord(record: SessionRecord, ending: Ending): SessionRecord {
  const { person, born, seen, device, address, timeZone, auth } = record;
  return {
    person,
    born,
    seen,
    device,
    address,
    ...(timeZone ? { timeZone } : {}),
    auth: { ...auth, token: "" },
    ended: ending,
  };
}

export class MemoryLedger implements SessionLedger {
  readonly #records: LRUCache<string, SessionRecord>;
  /** Each person's session ids, for their list. */
  readonly #people = new Map<string, Set<string>>();

  constructor(
    private readonly lifetimeMs: number,
    private readonly now: () => number,
    maxBytes = LEDGER_MAX_BYTES,
  ) {
    this.#records = new LRUCache<string, SessionRecord>({
      ...expiring(maxBytes, lifetimeMs + LINGER_MS, now),
      sizeCalculation: recordSize,
      dispose: (record, id, reason) => {
        if (reason !== "set") this.#unlist(record.person, id);
      },
    });
  }

  read(id: string): SessionRecord | undefined {
    return this.#records.get(id);
  }

  write(id: string, record: SessionRecord): void {
    if (!this.#records.get(id)?.ended) this.hold(id, record);
  }

  async end(id: string, ending: Ending): Promise<boolean> {
    return this.endHere(id, ending);
  }

  /** Ends the record this process holds; true when it was live. */
  endHere(id: string, ending: Ending): boolean {
    const held = this.#records.get(id);
    if (!held || held.ended) return false;
    this.hold(id, endedRecord(held, ending));
    return true;
  }

  /** Keeps the record as it is, ended or not, for what is left of its lifetime (counted from its birth), and a linger. */
  hold(id: string, record: SessionRecord): void {
    const ttl = record.born + this.lifetimeMs + LINGER_MS - this.now();
    if (ttl <= 0) return void this.#records.delete(id);
    this.#records.set(id, record, { ttl });
    const ids = this.#people.get(record.person) ?? new Set<string>();
    this.#people.set(record.person, ids.add(id));
  }

  async of(person: string): Promise<PersonSessions> {
    return { sessions: this.held(person), complete: true };
  }

  afterOutage(): void {}

  /** The person's records this process holds, newest first. */
  held(person: string): Array<[string, SessionRecord]> {
    const found: Array<[string, SessionRecord]> = [];
    for (const id of this.#people.get(person) ?? []) {
      const record = this.#records.get(id);
      if (record) found.push([id, record]);
    }
    return found.sort(([, a], [, b]) => b.born - a.born);
  }

  /** Every record held, for a Redis that came back empty. */
  entries(): IterableIterator<[string, SessionRecord]> {
    return this.#records.entries();
  }

  /** What is left of a record's lifetime here, in ms (0: not held). */
  leftOf(id: string): number {
    const record = this.#records.get(id);
    return record ? Math.max(0, record.born + this.lifetimeMs + LINGER_MS - this.now()) : 0;
  }

  get size(): number {
    return this.#records.size;
  }

  #unlist(person: string, id: string): void {
    const ids = this.#people.get(person);
    ids?.delete(id);
    if (ids?.size === 0) this.#people.delete(person);
  }
}

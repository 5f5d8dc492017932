// A person's mark "sessions begun before T are ended" ("Sign out of all other devices", a password change): one per
// person, checked on every request of their sessions. The interface, and the in-memory store for a single replica.
import { LRUCache } from "lru-cache";
import { expiring } from "#server/stores/memory-bounds.ts";

/** Every session of the person begun before `before` has ended, except `except` (the one that asked). */
export type PersonMark = { before: number; except: string };

/** People with a mark kept per process: as many as the session registry keeps. */
export const MARKS_MAX = 50_000;

/** A person is `personKey(site, company, user)`, as the throttles count them. Never rejects. */
export interface PersonMarks {
  /**
   * Marks the person (a mark with a later `before` replaces an earlier one). Answers true once every replica holds
   * it, false while it is on its way (Redis cannot take it yet: it is sent again when it returns).
   */
  mark(person: string, mark: PersonMark): Promise<boolean>;
  /** True when the person's mark ends this session: begun before it, and not the one that asked. From memory. */
  ends(person: string, sid: string, began: number): boolean;
}

export const endedBy = (mark: PersonMark | undefined, sid: string, began: number): boolean =>
  mark !== undefined && began < mark.before && sid !== mark.except;

export class MemoryPersonMarks implements PersonMarks {
  readonly #marks: LRUCache<string, PersonMark>;

  /** Each mark is kept `keepMs` (the sessions' absolute lifetime: no session it ends outlives that). */
  constructor(keepMs: number, now: () => number, max = MARKS_MAX) {
    this.#marks = new LRUCache<string, PersonMark>(expiring(max, keepMs, now));
  }

  async mark(person: string, mark: PersonMark): Promise<boolean> {
    this.keep(person, mark);
    return true;
  }

  /** Keeps the mark unless the person's kept one is later; answers whether it was kept. */
  keep(person: string, mark: PersonMark, ttlMs?: number): boolean {
    const kept = this.#marks.get(person);
    if (kept && kept.before >= mark.before) return false;
    this.#marks.set(person, { ...mark }, ttlMs === undefined ? {} : { ttl: ttlMs });
    return true;
  }

  get(person: string): PersonMark | undefined {
    return this.#marks.get(person);
  }

  ends(person: string, sid: string, began: number): boolean {
    return endedBy(this.#marks.get(person), sid, began);
  }

  /** Each person's mark. */
  *entries(): Generator<[string, PersonMark]> {
    yield* this.#marks.entries();
  }
}

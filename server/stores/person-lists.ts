// A short list per person, newest first, bounded and expiring: what the security activity and the trusted browsers
// are built on. The interface, and the in-memory store that is correct for a single replica.
import { LRUCache } from "lru-cache";
import { expiring } from "#server/stores/memory-bounds.ts";

/** What one kind of list keeps, and for how long. */
export type ListKind<T extends object> = {
  /** Its Redis keys are `<prefix><name>:<person>:order` and `:entries` (server/stores/redis-keys.ts). */
  name: string;
  /** Items kept per person: past this the oldest go. */
  perPerson: number;
  /** People kept per process; the least recently added to go first. */
  peopleMax: number;
  /** How long an item is kept after its time; a person's list goes this long after its last addition. */
  keepMs: number;
  /** The item's time: it orders the list (newest first) and ages the item out. */
  timeOf(item: T): number;
  /** An item as Redis gave it back (undefined when it is not JSON), checked again: undefined leaves it out. */
  parse(stored: unknown): T | undefined;
};

/** One item of a list: its id (unique within the person's list) and what it holds. */
export type Listed<T extends object> = { id: string; item: T };

export type PersonList<T extends object> = {
  /** Newest first; an item whose time is the same as another's, the greater id first. */
  items: Listed<T>[];
  /** False when Redis could not answer: only what this replica knows. */
  complete: boolean;
  /** True once the bound pushed an older item of this person out. */
  trimmed: boolean;
};

export type AddOptions = {
  /** Added only to a person who has a list already (a failed sign-in may name anyone). */
  onlyIfListed?: boolean;
};

/** A person is `personKey(site, company, user)`, as the throttles count them. Never rejects. */
export interface PersonLists<T extends object> {
  /** Adds an item (replacing one of the same id); answers the ids the bound pushed out, oldest first. */
  add(person: string, id: string, item: T, options?: AddOptions): Promise<string[]>;
  remove(person: string, id: string): Promise<void>;
  list(person: string): Promise<PersonList<T>>;
}

/** Newest first; the same time, the greater id first (as Redis orders a sorted set's ties, reversed). */
export const newestFirst =
  <T extends object>(kind: ListKind<T>) =>
  (a: Listed<T>, b: Listed<T>): number =>
    kind.timeOf(b.item) - kind.timeOf(a.item) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

type Person<T extends object> = { items: Map<string, Listed<T>>; trimmed: boolean };

export class MemoryPersonLists<T extends object> implements PersonLists<T> {
  readonly #people: LRUCache<string, Person<T>>;
  readonly #order: (a: Listed<T>, b: Listed<T>) => number;

  constructor(
    private readonly kind: ListKind<T>,
    private readonly now: () => number,
  ) {
    this.#order = newestFirst(kind);
    this.#people = new LRUCache<string, Person<T>>(expiring(kind.peopleMax, kind.keepMs, now));
  }

  async add(person: string, id: string, item: T, { onlyIfListed = false }: AddOptions = {}): Promise<string[]> {
    const state = this.#live(person);
    if (onlyIfListed && !state) return [];
    const kept = state ?? { items: new Map(), trimmed: false };
    kept.items.set(id, { id, item: { ...item } });
    const dropped = [...kept.items.values()]
      .sort(this.#order)
      .slice(this.kind.perPerson)
      .map((listed) => listed.id)
      .reverse();
    for (const old of dropped) kept.items.delete(old);
    if (dropped.length > 0) kept.trimmed = true;
    this.#people.set(person, kept); // the newest item's time keeps the person
    return dropped;
  }

  async remove(person: string, id: string): Promise<void> {
    this.#live(person)?.items.delete(id);
  }

  async list(person: string): Promise<PersonList<T>> {
    const state = this.#live(person);
    const items = state ? [...state.items.values()].map((listed) => ({ ...listed, item: { ...listed.item } })) : [];
    return { items: items.sort(this.#order), complete: true, trimmed: state?.trimmed ?? false };
  }

  /** True when the person has a list (an item within its time). */
  has(person: string): boolean {
    return (this.#live(person)?.items.size ?? 0) > 0;
  }

  /** The person's list, without the items past their time; undefined when the person has none. */
  #live(person: string): Person<T> | undefined {
    const state = this.#people.get(person, { updateAgeOnGet: false });
    if (!state) return undefined;
    const oldest = this.now() - this.kind.keepMs;
    for (const [id, listed] of state.items) if (this.kind.timeOf(listed.item) <= oldest) state.items.delete(id);
    return state;
  }
}

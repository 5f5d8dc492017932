// The per-person lists shared through Redis: per person a sorted set of ids by time, a hash of items and a hash of
// "last seen" times, all three expiring with the newest item; this replica keeps a copy of what it wrote, to answer
// while Redis cannot. The bound is applied by Redis only: the copy misses what other replicas removed, and a bound
// applied to it would end sessions that are alive.
import {
  type AddOptions,
  type Listed,
  type ListKind,
  MemoryPersonLists,
  newestFirst,
  type PersonList,
  type PersonLists,
} from "#server/stores/person-lists.ts";
import { type RedisKeys, wholeMs } from "#server/stores/redis-keys.ts";
import type { RedisLink } from "#server/stores/redis-link.ts";

/** The entries hash's field that marks a person whose oldest item the bound pushed out (never an id). */
const TRIMMED = "";

export class RedisPersonLists<T extends object> implements PersonLists<T> {
  readonly #local: MemoryPersonLists<T>;

  constructor(
    private readonly link: RedisLink,
    private readonly keys: RedisKeys,
    private readonly kind: ListKind<T>,
    private readonly now: () => number = Date.now,
  ) {
    this.#local = new MemoryPersonLists(kind, now);
  }

  /** While Redis is away the bound waits (nothing is answered as dropped): the next addition Redis takes applies it. */
  async add(person: string, id: string, item: T, options: AddOptions = {}): Promise<string[]> {
    this.#local.addNow(person, id, item, options);
    if (!this.link.usable) return [];
    try {
      const { order, entries, seen } = this.keys.list(this.kind.name, person);
      const time = this.kind.timeOf(item);
      return await this.link.commands.portalListAdd(
        order,
        entries,
        seen,
        id,
        String(time),
        JSON.stringify(item),
        options.seen === undefined ? "" : String(options.seen),
        String(this.now() - this.kind.keepMs),
        String(this.kind.perPerson),
        String(wholeMs(this.kind.keepMs)),
        options.onlyIfListed ? "1" : "0",
      );
    } catch (error) {
      this.link.failed(error);
      return [];
    }
  }

  async seen(person: string, id: string, at: number): Promise<void> {
    await this.#local.seen(person, id, at);
    if (!this.link.usable) return;
    try {
      const { entries, seen } = this.keys.list(this.kind.name, person);
      await this.link.commands.portalListSeen(entries, seen, id, String(at));
    } catch (error) {
      this.link.failed(error);
    }
  }

  async remove(person: string, id: string): Promise<void> {
    await this.#local.remove(person, id);
    if (!this.link.usable) return;
    try {
      const { order, entries, seen } = this.keys.list(this.kind.name, person);
      await this.link.commands.portalListRemove(order, entries, seen, id);
    } catch (error) {
      // Not retried: the item leaves with its time, and a caller that must not list it any more checks on its own
      // (a removed session's id is revoked).
      this.link.failed(error);
    }
  }

  async list(person: string): Promise<PersonList<T>> {
    if (this.link.usable) {
      try {
        return await this.#read(person);
      } catch (error) {
        this.link.failed(error);
      }
    }
    // The copy's own bound is no ending (see `add`): it never says older items were pushed out.
    return { ...(await this.#local.list(person)), complete: false, trimmed: false };
  }

  async #read(person: string): Promise<PersonList<T>> {
    const { entries, seen } = this.keys.list(this.kind.name, person);
    const [stored, seenTimes] = await Promise.all([
      this.link.commands.hgetall(entries),
      this.link.commands.hgetall(seen),
    ]);
    const oldest = this.now() - this.kind.keepMs;
    const items: Listed<T>[] = [];
    for (const [id, text] of Object.entries(stored)) {
      if (id === TRIMMED) continue;
      const item = parseStored(this.kind, text);
      if (!item) continue;
      const time = this.kind.timeOf(item);
      if (time <= oldest) continue;
      items.push({ id, item, seen: Number(seenTimes[id] ?? time) || time });
    }
    return { items: items.sort(newestFirst(this.kind)), complete: true, trimmed: TRIMMED in stored };
  }
}

function parseStored<T extends object>(kind: ListKind<T>, text: string): T | undefined {
  try {
    return kind.parse(JSON.parse(text));
  } catch {
    return undefined;
  }
}

// The per-person lists shared through Redis: per person a sorted set of ids by time, a hash of items and a hash of
// "last seen" times, all three expiring with the newest item; this replica keeps a copy of what it wrote, to answer
// while Redis cannot. The bound is applied by Redis only: the copy misses what other replicas removed, and a bound
// applied to it would end sessions that are alive. What was added or removed while Redis could not take it waits
// here, bounded, and is sent when it returns.
import type { Redis } from "ioredis";
import { OnePassAtATime } from "#server/stores/one-pass-at-a-time.ts";
import {
  type AddOptions,
  type Listed,
  type ListKind,
  MemoryPersonLists,
  newestFirst,
  type PersonList,
  type PersonLists,
} from "#server/stores/person-lists.ts";
import { type WaitingStep, WaitingSteps } from "#server/stores/person-lists-waiting.ts";
import { type RedisKeys, wholeMs } from "#server/stores/redis-keys.ts";
import { type RedisLink, runPipeline } from "#server/stores/redis-link.ts";

/** The entries hash's field that marks a person whose oldest item the bound pushed out (never an id). */
const TRIMMED = "";
/** Waiting steps sent per pipeline when Redis returns. */
const BATCH = 500;
/** A bound no list reaches: what waited is sent without ending anything (the next addition applies the bound). */
const NO_BOUND = String(Number.MAX_SAFE_INTEGER);
/**
 * After the link comes back from an outage, the bound waits this long: the other replicas reconnect within a few
 * seconds (backoff up to 2 s, a PING each second) and send what they removed meanwhile before it counts.
 */
export const SETTLE_MS = 10_000;

type RedisListOptions = {
  /** What must be in Redis before what waited here is sent (the revocations made meanwhile). */
  first?: () => Promise<void>;
  waitingMax?: number;
  settleMs?: number;
};

export class RedisPersonLists<T extends object> implements PersonLists<T> {
  readonly #local: MemoryPersonLists<T>;
  readonly #waiting: WaitingSteps<T>;
  readonly #replay = new OnePassAtATime(() => this.#replayPass());
  readonly #first: () => Promise<void>;
  /** When the bound may apply again: SETTLE_MS after the link last came back (not at start: nothing waited). */
  #boundFrom = 0;
  #wasUp = false;

  constructor(
    private readonly link: RedisLink,
    private readonly keys: RedisKeys,
    private readonly kind: ListKind<T>,
    { first = async () => {}, waitingMax, settleMs = SETTLE_MS }: RedisListOptions = {},
  ) {
    this.#first = first;
    this.#local = new MemoryPersonLists(kind, link.now);
    this.#waiting = new WaitingSteps(waitingMax);
    link.onUp(() => {
      if (this.#wasUp) this.#boundFrom = this.link.now() + settleMs;
      this.#wasUp = true;
      void this.replay();
    });
  }

  /**
   * While Redis is away, and for SETTLE_MS after it returns, the bound waits (nothing is answered as dropped): the
   * next addition Redis takes after that applies it.
   */
  async add(person: string, id: string, item: T, options: AddOptions = {}): Promise<string[]> {
    this.#local.addNow(person, id, item, options);
    const step: WaitingStep<T> = { person, id, step: "add", item, options };
    if (this.#wait(step)) return [];
    try {
      return await this.#add(this.link.commands, step, this.#settled());
    } catch (error) {
      this.link.failed(error);
      this.#waiting.keep(step);
      return [];
    }
  }

  async seen(person: string, id: string, at: number): Promise<void> {
    await this.#local.seen(person, id, at);
    this.#waiting.seen(person, id, at);
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
    const step: WaitingStep<T> = { person, id, step: "remove" };
    if (this.#wait(step)) return;
    try {
      await this.#remove(this.link.commands, step);
    } catch (error) {
      this.link.failed(error);
      this.#waiting.keep(step);
    }
  }

  /** True when this replica's copy has a list for the person (what it wrote itself). */
  hasHere(person: string): boolean {
    return this.#local.has(person);
  }

  /** Steps not yet in Redis. */
  get waiting(): number {
    return this.#waiting.size;
  }

  /**
   * Sends what waits here, oldest first, once `first` is done; sessions without the bound, which the next addition
   * applies. One at a time, again if asked meanwhile; stops when the link fails (it comes up again later).
   */
  replay(): Promise<void> {
    return this.#replay.run();
  }

  /** One pass over what waits, in batches; false when the link failed part-way. */
  async #replayPass(): Promise<boolean> {
    await this.#first();
    const steps = this.#waiting.all();
    for (let start = 0; start < steps.length; start += BATCH) {
      if (!this.link.usable) return false;
      const batch = steps.slice(start, start + BATCH);
      const pipeline = this.link.commands.pipeline();
      for (const step of batch)
        if (step.step === "add") void this.#add(pipeline, step, !this.kind.revocable);
        else void this.#remove(pipeline, step);
      try {
        await runPipeline(pipeline);
      } catch (error) {
        this.link.failed(error);
        return false;
      }
      for (const step of batch) this.#waiting.done(step);
    }
    return true;
  }

  /**
   * True when the step must wait: Redis cannot take it, or an earlier step for the same item still waits (sent in
   * order, after it).
   */
  #wait(step: WaitingStep<T>): boolean {
    if (this.link.usable && !this.#waiting.has(step.person, step.id)) return false;
    this.#waiting.keep(step);
    if (this.link.usable) void this.replay();
    return true;
  }

  /** The bound may apply: to a list whose bound ends nothing (the activity) always, to the sessions once settled. */
  #settled(): boolean {
    return !this.kind.revocable || this.link.now() >= this.#boundFrom;
  }

  /** The bound skips the sessions already revoked (their removal may not have reached Redis yet). */
  #add<R>(
    target: { portalListAdd: (...args: Parameters<Redis["portalListAdd"]>) => R },
    { person, id, item, options }: Extract<WaitingStep<T>, { step: "add" }>,
    bound: boolean,
  ): R {
    const { order, entries, seen } = this.keys.list(this.kind.name, person);
    return target.portalListAdd(
      order,
      entries,
      seen,
      id,
      String(this.kind.timeOf(item)),
      JSON.stringify(item),
      options.seen === undefined ? "" : String(options.seen),
      String(this.link.now() - this.kind.keepMs),
      bound ? String(this.kind.perPerson) : NO_BOUND,
      String(wholeMs(this.kind.keepMs)),
      options.onlyIfListed ? "1" : "0",
      this.kind.revocable ? this.keys.revoked("") : "",
    );
  }

  #remove<R>(
    target: { portalListRemove: (order: string, entries: string, seen: string, id: string) => R },
    { person, id }: WaitingStep<T>,
  ): R {
    const { order, entries, seen } = this.keys.list(this.kind.name, person);
    return target.portalListRemove(order, entries, seen, id);
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
    const oldest = this.link.now() - this.kind.keepMs;
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

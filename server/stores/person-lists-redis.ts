// The per-person lists shared through Redis: per person a sorted set of ids by time and a hash of items, both expiring
// with the newest item; this replica keeps a copy of what it wrote, to answer while Redis cannot. Only Redis answers
// what the bound pushed out: the copy misses what other replicas removed, so its own bound would push out items too
// soon. What was added or removed while Redis could not take it waits here, bounded, and is sent when it returns.
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

export class RedisPersonLists<T extends object> implements PersonLists<T> {
  readonly #local: MemoryPersonLists<T>;
  readonly #waiting: WaitingSteps<T>;
  readonly #replay = new OnePassAtATime(() => this.#replayPass());

  constructor(
    private readonly link: RedisLink,
    private readonly keys: RedisKeys,
    private readonly kind: ListKind<T>,
    { waitingMax }: { waitingMax?: number } = {},
  ) {
    this.#local = new MemoryPersonLists(kind, link.now);
    this.#waiting = new WaitingSteps(waitingMax);
    link.onUp(() => void this.replay());
  }

  /** While Redis is away nothing is answered as dropped: the next addition Redis takes applies the bound. */
  async add(person: string, id: string, item: T, options: AddOptions = {}): Promise<string[]> {
    this.#local.addNow(person, id, item, options);
    const step: WaitingStep<T> = { person, id, step: "add", item, options };
    if (this.#wait(step)) return [];
    try {
      return await this.#add(this.link.commands, step);
    } catch (error) {
      this.link.failed(error);
      this.#waiting.keep(step);
      return [];
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
   * Sends what waits here, oldest first. One at a time, again if asked meanwhile; stops when the link fails (it comes
   * up again later).
   */
  replay(): Promise<void> {
    return this.#replay.run();
  }

  /** One pass over what waits, in batches; false when the link failed part-way. */
  async #replayPass(): Promise<boolean> {
    const steps = this.#waiting.all();
    for (let start = 0; start < steps.length; start += BATCH) {
      if (!this.link.usable) return false;
      const batch = steps.slice(start, start + BATCH);
      const pipeline = this.link.commands.pipeline();
      for (const step of batch)
        if (step.step === "add") void this.#add(pipeline, step);
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

  #add<R>(
    target: { portalListAdd: (...args: Parameters<Redis["portalListAdd"]>) => R },
    { person, id, item, options }: Extract<WaitingStep<T>, { step: "add" }>,
  ): R {
    const { order, entries } = this.keys.list(this.kind.name, person);
    return target.portalListAdd(
      order,
      entries,
      id,
      String(this.kind.timeOf(item)),
      JSON.stringify(item),
      String(this.link.now() - this.kind.keepMs),
      String(this.kind.perPerson),
      String(wholeMs(this.kind.keepMs)),
      options.onlyIfListed ? "1" : "0",
    );
  }

  #remove<R>(
    target: { portalListRemove: (...args: Parameters<Redis["portalListRemove"]>) => R },
    { person, id }: WaitingStep<T>,
  ): R {
    const { order, entries } = this.keys.list(this.kind.name, person);
    return target.portalListRemove(order, entries, id);
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
    const stored = await this.link.commands.hgetall(this.keys.list(this.kind.name, person).entries);
    const oldest = this.link.now() - this.kind.keepMs;
    const items: Listed<T>[] = [];
    for (const [id, text] of Object.entries(stored)) {
      if (id === TRIMMED) continue;
      const item = parseStored(this.kind, text);
      if (!item) continue;
      if (this.kind.timeOf(item) > oldest) items.push({ id, item });
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

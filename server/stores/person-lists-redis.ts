// The per-person lists shared through Redis: per person a sorted set of ids by time and a hash of items, both expiring
// with the newest item; this replica keeps a copy of what it wrote, to answer while Redis cannot. Only Redis answers
// what the bound pushed out: the copy misses what other replicas removed, so its own bound would push out items too
// soon. What was added or removed while Redis could not take it waits here, bounded, and is sent when it returns.
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
import { jsonOf, type RedisLink } from "#server/stores/redis-link.ts";
import type { Scripts } from "#server/stores/redis-scripts.ts";
import { WaitingSteps } from "#server/stores/waiting-steps.ts";

/** The entries hash's field that marks a person whose oldest item the bound pushed out (never an id). */
const TRIMMED = "";

type Step<T extends object> =
  | { person: string; id: string; step: "add"; item: T; options: AddOptions }
  | { person: string; id: string; step: "remove" };

export class RedisPersonLists<T extends object> implements PersonLists<T> {
  readonly #local: MemoryPersonLists<T>;
  /** What Redis has not taken yet: one step per item, the last one (docs/decisions.md, "Shared state"). */
  readonly waiting: WaitingSteps<Step<T>>;

  constructor(
    private readonly link: RedisLink,
    private readonly keys: RedisKeys,
    private readonly kind: ListKind<T>,
  ) {
    this.#local = new MemoryPersonLists(kind, link.now);
    this.waiting = new WaitingSteps<Step<T>>(
      link,
      (pipeline, step) => void (step.step === "add" ? this.#add(pipeline, step) : this.#remove(pipeline, step)),
      ({ person, id }) => `${person}\n${id}`,
    );
  }

  /** While Redis is away nothing is answered as dropped: the next addition Redis takes applies the bound. */
  async add(person: string, id: string, item: T, options: AddOptions = {}): Promise<string[]> {
    await this.#local.add(person, id, item, options);
    const step: Step<T> = { person, id, step: "add", item, options };
    return this.waiting.send(step, () => this.#add(this.link.commands, step), []);
  }

  async remove(person: string, id: string): Promise<void> {
    await this.#local.remove(person, id);
    const step: Step<T> = { person, id, step: "remove" };
    await this.waiting.send(step, async () => void (await this.#remove(this.link.commands, step)), undefined);
  }

  /** True when this replica's copy has a list for the person (what it wrote itself). */
  hasHere(person: string): boolean {
    return this.#local.has(person);
  }

  #add<R>(target: Scripts<"portalListAdd", R>, { person, id, item, options }: Extract<Step<T>, { step: "add" }>): R {
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

  #remove<R>(target: Scripts<"portalListRemove", R>, { person, id }: Step<T>): R {
    const { order, entries } = this.keys.list(this.kind.name, person);
    return target.portalListRemove(order, entries, id);
  }

  async list(person: string): Promise<PersonList<T>> {
    // The copy's own bound is no ending (see `add`): it never says older items were pushed out.
    const local = async () => ({ ...(await this.#local.list(person)), complete: false, trimmed: false });
    return this.link.either(() => this.#read(person), local);
  }

  async #read(person: string): Promise<PersonList<T>> {
    const stored = await this.link.commands.hgetall(this.keys.list(this.kind.name, person).entries);
    const oldest = this.link.now() - this.kind.keepMs;
    const items: Listed<T>[] = [];
    for (const [id, text] of Object.entries(stored)) {
      const item = id === TRIMMED ? undefined : this.kind.parse(jsonOf(text));
      if (item && this.kind.timeOf(item) > oldest) items.push({ id, item });
    }
    return { items: items.sort(newestFirst(this.kind)), complete: true, trimmed: TRIMMED in stored };
  }
}

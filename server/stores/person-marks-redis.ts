// The person marks shared through Redis: a key per marked person, announced on a channel; each replica answers from
// memory, and a mark made while Redis cannot take it is kept here and sent again each time Redis returns.
import { LRUCache } from "lru-cache";
import { bounded } from "#server/stores/memory-bounds.ts";
import { MARKS_MAX, MemoryPersonMarks, type PersonMark, type PersonMarks } from "#server/stores/person-marks.ts";
import { type RedisKeys, wholeMs } from "#server/stores/redis-keys.ts";
import { type RedisLink, runPipeline } from "#server/stores/redis-link.ts";
import { RedisSync } from "#server/stores/redis-sync.ts";

/** Keys read per SCAN step when loading the marks. */
const SCAN_COUNT = 1_000;

/** The stored value, and the announcement: `<before> <except>`, the person beside it in the announcement. */
const stored = (mark: PersonMark) => `${mark.before} ${mark.except}`;

function parseMark(text: string): PersonMark | undefined {
  const match = /^(\d+) (\S*)$/.exec(text); // a reset excepts no session: nothing after the space
  return match ? { before: Number(match[1]), except: match[2] as string } : undefined;
}

export class RedisPersonMarks implements PersonMarks {
  readonly #local: MemoryPersonMarks;
  /** Marked here but not yet in Redis. */
  readonly #pending: LRUCache<string, PersonMark>;
  readonly #sync: RedisSync;

  constructor(
    private readonly link: RedisLink,
    private readonly keys: RedisKeys,
    private readonly keepMs: number,
    max = MARKS_MAX,
  ) {
    this.#local = new MemoryPersonMarks(keepMs, link.now, max);
    this.#pending = new LRUCache<string, PersonMark>({ ...bounded(max) });
    link.onMessage((message) => this.#heard(message), keys.markChannel);
    this.#sync = new RedisSync(link, {
      // What is pending; and every mark held here when Redis restarted since the last sync (it may be empty).
      share: (restarted) =>
        this.#share(restarted ? [...this.#local.entries()].map(([person]) => person) : [...this.#pending.keys()]),
      load: () => this.#load(),
    });
  }

  ends(person: string, sid: string, began: number): boolean {
    return this.#local.ends(person, sid, began);
  }

  async mark(person: string, mark: PersonMark): Promise<boolean> {
    this.#local.keep(person, mark);
    this.#pending.set(person, this.#local.get(person) ?? mark);
    if (!this.link.usable) return false;
    try {
      await this.#share([person]);
      return true;
    } catch (error) {
      this.link.failed(error);
      return false;
    }
  }

  /**
   * Resolves once every mark has been loaded from Redis, or after `timeoutMs`; never rejects. A replica serves no
   * session before: one a mark ended would otherwise be served.
   */
  ready(timeoutMs: number): Promise<void> {
    return this.#sync.ready(timeoutMs);
  }

  /** Marks not yet in Redis. */
  get pending(): number {
    return this.#pending.size;
  }

  /**
   * Writes what is pending here (and every mark held, when Redis restarted since: it may have come back empty), then
   * loads every mark; one at a time, again if asked meanwhile.
   */
  sync(): Promise<void> {
    return this.#sync.run();
  }

  async #share(people: string[]): Promise<void> {
    for (let start = 0; start < people.length; start += SCAN_COUNT) {
      const batch = people.slice(start, start + SCAN_COUNT);
      const pipeline = this.link.commands.pipeline();
      for (const person of batch) {
        const mark = this.#local.get(person);
        if (!mark) continue;
        const left = this.keepMs - (this.link.now() - mark.before);
        if (left <= 0) continue;
        const announced = JSON.stringify({ person, mark: stored(mark) });
        const key = this.keys.mark(person);
        pipeline.portalMark(
          key,
          String(mark.before),
          stored(mark),
          String(wholeMs(left)),
          this.keys.markChannel,
          announced,
        );
      }
      if (pipeline.length > 0) await runPipeline(pipeline);
      for (const person of batch) this.#pending.delete(person);
    }
  }

  async #load(): Promise<void> {
    const skip = this.keys.mark("").length;
    let cursor = "0";
    do {
      const [next, found] = await this.link.commands.scan(cursor, "MATCH", this.keys.markPattern, "COUNT", SCAN_COUNT);
      cursor = next;
      if (found.length === 0) continue;
      const pipeline = this.link.commands.pipeline();
      for (const key of found) pipeline.get(key).pttl(key);
      const answers = await runPipeline(pipeline);
      found.forEach((key, index) => {
        const text = answers[index * 2];
        const left = answers[index * 2 + 1];
        const mark = typeof text === "string" ? parseMark(text) : undefined;
        if (mark && typeof left === "number" && left > 0) this.#local.keep(key.slice(skip), mark, left);
      });
    } while (cursor !== "0");
  }

  #heard(message: string): void {
    try {
      const { person, mark } = JSON.parse(message) as { person?: unknown; mark?: unknown };
      const parsed = typeof mark === "string" ? parseMark(mark) : undefined;
      if (typeof person === "string" && parsed) this.#local.keep(person, parsed);
    } catch {
      // Not a mark: nothing to keep.
    }
  }
}

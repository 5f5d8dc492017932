// The session ledger shared through Redis: each record a key (its token sealed with the session key), each ending a key
// of its own that no later write of the record can undo, each person's session ids a sorted set. Every write and
// ending is announced, so each replica answers the records it serves from its own memory: a page view costs no round
// trip. What Redis cannot take is kept here and sent when it returns; a replica asked for a record it never held while
// Redis is away answers UNAVAILABLE (the person is asked to try again), never "ended" and never a guess.
import { randomUUID } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { Ending, SessionRecord } from "#server/session/record.ts";
import {
  endedRecord,
  LINGER_MS,
  MemoryLedger,
  type PersonSessions,
  type SessionLedger,
  UNAVAILABLE,
} from "#server/stores/ledger.ts";
import { bounded } from "#server/stores/memory-bounds.ts";
import { type RedisKeys, wholeMs } from "#server/stores/redis-keys.ts";
import { jsonOf, type RedisLink, runPipeline } from "#server/stores/redis-link.ts";
import { RedisSync } from "#server/stores/redis-sync.ts";
import { endReasons } from "#web/protocol/session-end.ts";

/**
 * How a record is kept at rest: sealed with the session key, bound to its key (`bound`: a record to its id, an ending
 * to its id), opened with any key of the rotation. What Redis holds can neither be read nor changed nor moved to
 * another id without the session key.
 */
export type RecordSeal = {
  seal(text: string, bound: string): string;
  open(sealed: string, bound: string): string | undefined;
};

/** Records read or refreshed per round trip. */
const BATCH = 500;
/** Writes and endings kept here while Redis cannot take them; past it the oldest write (never an ending) is dropped. */
const PENDING_MAX = 200_000;
/** Tasks waiting for Redis to return (an ending of a person's sessions asked during the outage). */
const TASKS_MAX = 10_000;
/**
 * After Redis returns, how long a record it does not hold may still be on its way (another replica sending back what
 * it kept, into a Redis that came back empty): read as UNAVAILABLE meanwhile; the tasks that waited for the outage run
 * at its end.
 */
export const SETTLE_MS = 3_000;

/** A write (its stored record) or an ending, and which replica made it: a replica does not apply its own. */
type Announced = ["w" | "e", string, string, string];

export class RedisLedger implements SessionLedger {
  /** The records this replica serves, kept in step by what it hears. */
  readonly #local: MemoryLedger;
  /** Written or ended here, not yet in Redis. */
  readonly #writes: LRUCache<string, true>;
  readonly #endings = new Map<string, Ending>();
  readonly #sync: RedisSync;
  readonly #self = randomUUID();
  readonly #afterOutage: Array<() => Promise<void>> = [];
  #wasUp = false;
  #unsureUntil = 0;

  constructor(
    private readonly link: RedisLink,
    private readonly keys: RedisKeys,
    private readonly lifetimeMs: number,
    private readonly seal: RecordSeal,
    maxBytes?: number,
  ) {
    this.#local = new MemoryLedger(lifetimeMs, link.now, maxBytes);
    this.#writes = new LRUCache<string, true>(bounded(PENDING_MAX));
    link.onMessage((message) => this.#heard(message));
    link.onUp(() => {
      // Back after an outage: what the other replicas send back meanwhile, this one may not hear; read again after it.
      if (this.#wasUp) {
        this.#unsureUntil = link.now() + SETTLE_MS;
        setTimeout(() => void this.sync(), SETTLE_MS).unref();
      }
      this.#wasUp = true;
    });
    this.#sync = new RedisSync(link, {
      share: async (restarted) => {
        // A Redis that came back empty gets every record held here, ended ones included, then their endings (those
        // made during the outage announced, as any).
        const held = restarted ? [...this.#local.entries()] : [];
        await this.#send(
          held.map(([id]) => id),
          false,
        );
        await this.#sendPending();
        const ended = held.filter(([, record]) => record.ended).map(([id]) => id);
        await this.#sendEndings(ended, false);
        // The tasks wait out the settling: a bound on a person's sessions applied sooner would count as live those
        // another replica ended during the outage and has not sent back yet.
        const tasks = this.#afterOutage.splice(0);
        if (tasks.length > 0) setTimeout(() => tasks.forEach((task) => void task()), SETTLE_MS).unref();
      },
      load: () => this.#refresh([...this.#local.entries()].map(([id]) => id)),
    });
  }

  read(id: string): SessionRecord | undefined | Promise<SessionRecord | undefined | typeof UNAVAILABLE> {
    return this.#local.read(id) ?? this.#fetch(id);
  }

  write(id: string, record: SessionRecord): void {
    if (this.#local.read(id)?.ended) return;
    this.#local.write(id, record);
    this.#writes.set(id, true);
    if (this.link.usable) void this.#send([id]).catch((error) => this.link.failed(error));
  }

  async end(id: string, ending: Ending): Promise<boolean> {
    const held = this.#local.read(id);
    if (held?.ended) return false;
    this.#local.endHere(id, ending);
    this.#endings.set(id, ending);
    this.#writes.delete(id);
    return this.link.either(
      async () => (await this.#sendEndings([id]))[0] ?? false,
      () => held !== undefined,
    );
  }

  async of(person: string): Promise<PersonSessions> {
    return this.link.either<PersonSessions>(
      async (redis) => {
        // Every id the person's index holds (those born within the lifetime: the sign-in throttles bound how many).
        const ids = await redis.zrevrange(this.keys.sessionsOf(person), 0, -1);
        const missing = ids.filter((id) => this.#local.read(id) === undefined);
        const fetched = new Map(await this.#readMany(missing));
        const sessions: Array<[string, SessionRecord]> = [];
        for (const id of ids) {
          const record = this.#local.read(id) ?? fetched.get(id);
          if (record?.person === person) sessions.push([id, record]);
        }
        // What this replica wrote that Redis has not taken yet is listed too.
        const indexed = new Set(ids);
        for (const entry of this.#local.held(person)) if (!indexed.has(entry[0])) sessions.push(entry);
        return { sessions: sessions.sort(([, a], [, b]) => b.born - a.born), complete: true };
      },
      () => ({ sessions: this.#local.held(person), complete: false }),
    );
  }

  afterOutage(task: () => Promise<void>): void {
    if (this.#afterOutage.length < TASKS_MAX) this.#afterOutage.push(task);
  }

  /** Writes and endings not yet in Redis (made while it was unreachable). */
  get pending(): number {
    return this.#writes.size + this.#endings.size;
  }

  /** Resolves once the first pass with Redis is over, or after `timeoutMs`; never rejects. */
  ready(timeoutMs: number): Promise<void> {
    return this.#sync.ready(timeoutMs);
  }

  /** Sends what is pending, then refreshes every record held; one pass at a time. */
  sync(): Promise<void> {
    return this.#sync.run();
  }

  /** A record this replica does not hold, from Redis: kept here from now on. */
  #fetch(id: string): Promise<SessionRecord | undefined | typeof UNAVAILABLE> {
    return this.link.either(
      async () => {
        const [found] = await this.#readMany([id]);
        if (!found) return this.link.now() < this.#unsureUntil ? UNAVAILABLE : undefined;
        this.#local.hold(id, found[1]);
        return this.#local.read(id);
      },
      () => UNAVAILABLE,
    );
  }

  /** Each id's record as Redis holds it, with its ending (ids Redis does not hold are left out). */
  async #readMany(ids: string[]): Promise<Array<[string, SessionRecord]>> {
    const found: Array<[string, SessionRecord]> = [];
    for (let start = 0; start < ids.length; start += BATCH) {
      const batch = ids.slice(start, start + BATCH);
      const keys = batch.flatMap((id) => [this.keys.record(id), this.keys.ending(id)]);
      const values = await this.link.commands.mget(...keys);
      batch.forEach((id, index) => {
        const record = this.#opened(values[2 * index], id);
        const ending = this.#ending(values[2 * index + 1], id);
        if (record) found.push([id, ending ? endedRecord(record, ending) : record]);
      });
    }
    return found;
  }

  /** What another replica announced: a record it wrote (kept only if this replica holds it), or an ending. */
  #heard(message: string): void {
    const announced = jsonOf(message) as Announced | undefined;
    if (announced === undefined) return;
    const [kind, id, value, by] = announced;
    if (typeof id !== "string" || typeof value !== "string" || by === this.#self) return;
    const ending = kind === "e" ? this.#ending(value, id) : undefined;
    if (ending) this.#local.endHere(id, ending);
    if (kind !== "w" || this.#writes.has(id)) return;
    const held = this.#local.read(id);
    const record = held && !held.ended ? this.#opened(value, id) : undefined;
    if (record) this.#local.write(id, record);
  }

  async #sendPending(): Promise<void> {
    await this.#sendEndings([...this.#endings.keys()]);
    await this.#send([...this.#writes.keys()]);
  }

  /**
   * Writes each held record (never over an ending key), announced, in one pipeline per batch; unannounced, for a
   * Redis that came back empty, ended records as well (their ending keys follow).
   */
  async #send(ids: string[], announce = true): Promise<void> {
    for (let start = 0; start < ids.length; start += BATCH) {
      const pipeline = this.link.commands.pipeline();
      const sent: string[] = [];
      for (const id of ids.slice(start, start + BATCH)) {
        const record = this.#local.read(id);
        const left = this.#local.leftOf(id);
        if (!record || (record.ended && announce) || left <= 0) continue;
        const stored = this.#stored(record, id);
        const message = announce ? JSON.stringify(["w", id, stored, this.#self] satisfies Announced) : "";
        pipeline.portalLedgerWrite(
          this.keys.record(id),
          this.keys.ending(id),
          this.keys.sessionsOf(record.person),
          stored,
          String(wholeMs(left)),
          id,
          String(record.born),
          String(wholeMs(this.lifetimeMs + LINGER_MS)),
          String(this.link.now() - this.lifetimeMs - LINGER_MS),
          announce ? this.keys.channel : "",
          message,
        );
        sent.push(id);
      }
      const answers = sent.length > 0 ? await runPipeline(pipeline) : [];
      if (announce) for (const id of sent) this.#writes.delete(id);
      // Refused: ended by another replica, which this one has not heard yet.
      const ended = sent.filter((_id, index) => answers[index] === 0);
      if (ended.length > 0) await this.#refresh(ended);
    }
  }

  /** Sets each ending once (answering, per id, whether this was the first), announced. */
  async #sendEndings(ids: string[], announce = true): Promise<boolean[]> {
    const firsts: boolean[] = [];
    for (let start = 0; start < ids.length; start += BATCH) {
      const batch = ids.slice(start, start + BATCH);
      const pipeline = this.link.commands.pipeline();
      for (const id of batch) {
        const ending = this.#endings.get(id) ?? this.#local.read(id)?.ended;
        const record = this.#local.read(id);
        if (!ending) continue;
        const left = String(wholeMs(this.#local.leftOf(id) || this.lifetimeMs + LINGER_MS));
        const sealed = this.seal.seal(JSON.stringify(ending), `ended\n${id}`);
        const message = announce ? JSON.stringify(["e", id, sealed, this.#self] satisfies Announced) : "";
        const value = record ? this.#stored(record, id) : "";
        pipeline.portalLedgerEnd(
          this.keys.record(id),
          this.keys.ending(id),
          sealed,
          left,
          value,
          announce ? this.keys.channel : "",
          message,
        );
      }
      const answers = pipeline.length > 0 ? await runPipeline(pipeline) : [];
      for (const answer of answers) firsts.push(answer === 1);
      for (const id of batch) this.#endings.delete(id);
    }
    return firsts;
  }

  /** Reads again every record held: what was written or ended elsewhere while this replica could not hear it. */
  async #refresh(ids: string[]): Promise<void> {
    const fresh = new Map(await this.#readMany(ids.filter((id) => !this.#writes.has(id))));
    for (const [id, record] of fresh) {
      const held = this.#local.read(id);
      if (record.ended) this.#local.endHere(id, record.ended);
      else if (held && !held.ended) this.#local.write(id, record);
    }
  }

  /** The record as Redis keeps it: sealed whole, bound to its id. */
  #stored(record: SessionRecord, id: string): string {
    return this.seal.seal(JSON.stringify(record), id);
  }

  /** A record Redis gave for `id`: undefined unless sealed by this portal's keys for that id, and of a record's shape. */
  #opened(value: string | null | undefined, id: string): SessionRecord | undefined {
    return this.#open<SessionRecord>(value, id, (record) => {
      if (typeof record?.person !== "string" || typeof record.auth?.token !== "string") return false;
      return Boolean(record.ended) || record.auth.token !== "";
    });
  }

  /** An ending Redis gave for `id`, sealed for it, of a reason this portal knows. */
  #ending(value: string | null | undefined, id: string): Ending | undefined {
    return this.#open<Ending>(
      value,
      `ended\n${id}`,
      (ending) => typeof ending?.at === "number" && (endReasons as readonly string[]).includes(ending.reason),
    );
  }

  /** What Redis gave, opened with the seal bound to `bound`, and parsed as JSON: undefined unless `valid` holds. */
  #open<T>(value: string | null | undefined, bound: string, valid: (parsed: T) => boolean): T | undefined {
    const text = value ? this.seal.open(value, bound) : undefined;
    const parsed = text ? (jsonOf(text) as T | undefined) : undefined;
    return parsed !== undefined && valid(parsed) ? parsed : undefined;
  }
}

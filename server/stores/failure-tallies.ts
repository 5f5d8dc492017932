// Each person's failed attempts (a failed sign-in, a wrong current password, a wrong MFA code), counted rather than
// kept one by one: anyone who knows a company and a user ID can repeat a failure at will, and a list of the newest
// events would then hold nothing else. Per kind of failure and period, a count, the distinct addresses (bounded), the
// first and the latest. The interface, the rules both stores follow, and the in-memory store for a single replica.
import { hash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { bounded, clockOf } from "#server/stores/memory-bounds.ts";

/** Distinct addresses counted per kind and period; past it the tally says "50+" (docs/decisions.md, issue 30). */
export const ADDRESSES_COUNTED = 50;
/** People whose failures are kept per process, as many as the activity keeps; the least recently written go first. */
export const FAILURE_PEOPLE_MAX = 50_000;

/** One failed attempt. `source` is what counts as one address (addressKey: an IPv6 /64 is one). */
export type Failure = { kind: string; at: number; device: string; address: string; source: string };

/** The failures of one kind in one period, as kept: `sources` are the counted addresses' tags. */
export type StoredTally = {
  count: number;
  first: number;
  last: number;
  /** The latest failure's device and address. */
  device: string;
  address: string;
  sources: number[];
  /** A further address came once `sources` was full. */
  more: boolean;
};

/** From a completed sign-in (`since`; 0 when none was seen before the first failure) to the next one. */
export type Period = { since: number; tallies: Record<string, StoredTally> };

/** A person's failures since their latest completed sign-in (`open`), and between the one before it and it. */
export type FailureRecord = { open: Period; closed?: Period };

/** A tally as the pages show it. */
export type Tally = {
  kind: string;
  count: number;
  addresses: number;
  moreAddresses: boolean;
  first: number;
  last: number;
  device: string;
  address: string;
};

export type FailureList = {
  /**
   * The open period, then the closed one, each with a tally per kind (the newest first), none older than the
   * retention; a period without one is left out.
   */
  periods: { since: number; tallies: Tally[] }[];
  /** Each kind's failures over both periods (since the sign-in before the latest one), addresses counted once. */
  sincePrevious: Tally[];
  /** False when Redis could not answer: only what this replica counted. */
  complete: boolean;
};

/** A person is `personKey(site, company, user)`. Never rejects. */
export interface FailureTallies {
  /** `knownOnly`: counted only for a person who has activity or failures already (a failed sign-in may name anyone). */
  count(person: string, failure: Failure, knownOnly: boolean): Promise<void>;
  /** A completed sign-in at `at`: the open period closes (the closed one before it is forgotten), a new one opens. */
  signedIn(person: string, at: number): Promise<void>;
  list(person: string): Promise<FailureList>;
}

/** An address's tag: 30 bits of its digest, a small integer wherever it is kept (a collision only undercounts). */
export const sourceTag = (source: string): number => hash("sha256", source, "buffer").readUInt32BE(0) >>> 2;

/** Counts the failure into the record, in the period its time falls in (none: too old, it is dropped). */
export function countInto(record: FailureRecord, failure: Failure): void {
  const period = [record.open, record.closed].find((candidate) => candidate && failure.at >= candidate.since);
  if (!period) return;
  const tally = period.tallies[failure.kind] ?? {
    count: 0,
    first: failure.at,
    last: failure.at,
    device: failure.device,
    address: failure.address,
    sources: [],
    more: false,
  };
  period.tallies[failure.kind] = tally;
  tally.count += 1;
  tally.first = Math.min(tally.first, failure.at);
  if (failure.at >= tally.last)
    Object.assign(tally, { last: failure.at, device: failure.device, address: failure.address });
  const tag = sourceTag(failure.source);
  if (tally.sources.includes(tag)) return;
  if (tally.sources.length < ADDRESSES_COUNTED) tally.sources.push(tag);
  else tally.more = true;
}

/** The sign-in closes the open period; one older than the open period's start changes nothing. */
export function rotate(record: FailureRecord, at: number): boolean {
  if (at <= record.open.since) return false;
  record.closed = record.open;
  record.open = { since: at, tallies: {} };
  return true;
}

/** The record as the pages read it, leaving out the tallies whose latest failure is `oldest` or older. */
export function listOf(record: FailureRecord | undefined, oldest: number, complete: boolean): FailureList {
  const periods = [record?.open, record?.closed].flatMap((period) =>
    period
      ? [{ since: period.since, tallies: Object.entries(period.tallies).filter(([, { last }]) => last > oldest) }]
      : [],
  );
  const kinds = new Set(periods.flatMap(({ tallies }) => tallies.map(([kind]) => kind)));
  const newestFirst = (a: Tally, b: Tally) => b.last - a.last || (a.kind < b.kind ? -1 : 1);
  return {
    periods: periods
      .filter(({ tallies }) => tallies.length > 0)
      .map(({ since, tallies }) => ({
        since,
        tallies: tallies.map(([kind, tally]) => shown(kind, [tally])).sort(newestFirst),
      })),
    sincePrevious: [...kinds]
      .map((kind) =>
        shown(
          kind,
          periods.flatMap(({ tallies }) => tallies.filter(([named]) => named === kind).map(([, tally]) => tally)),
        ),
      )
      .sort(newestFirst),
    complete,
  };
}

/** One kind's tallies as one: counts added, each address counted once, the latest failure's device and address. */
function shown(kind: string, tallies: StoredTally[]): Tally {
  const latest = tallies.reduce((a, b) => (b.last > a.last ? b : a));
  const sources = new Set(tallies.flatMap((tally) => tally.sources));
  return {
    kind,
    count: tallies.reduce((sum, tally) => sum + tally.count, 0),
    addresses: Math.min(sources.size, ADDRESSES_COUNTED),
    moreAddresses: sources.size > ADDRESSES_COUNTED || tallies.some((tally) => tally.more),
    first: Math.min(...tallies.map((tally) => tally.first)),
    last: latest.last,
    device: latest.device,
    address: latest.address,
  };
}

export class MemoryFailureTallies implements FailureTallies {
  readonly #people: LRUCache<string, FailureRecord>;
  readonly #now: () => number;

  /**
   * Each person's record is kept `keepMs` after its last write. `known` says whether the person has activity (a
   * failure that may name anyone is counted only then, or when they have failures already).
   */
  constructor(
    private readonly keepMs: number,
    private readonly known: (person: string) => boolean,
    now?: () => number,
    max = FAILURE_PEOPLE_MAX,
  ) {
    this.#now = now ?? Date.now;
    this.#people = new LRUCache<string, FailureRecord>({
      ...bounded(max),
      ttl: keepMs,
      ttlResolution: 0,
      perf: clockOf(now),
    });
  }

  async count(person: string, failure: Failure, knownOnly: boolean): Promise<void> {
    this.countNow(person, failure, knownOnly);
  }

  /** The same, at once: the Redis store keeps this replica's copy through it. */
  countNow(person: string, failure: Failure, knownOnly: boolean): void {
    const kept = this.#people.get(person);
    if (!kept && knownOnly && !this.known(person)) return;
    const record = kept ?? { open: { since: 0, tallies: {} } };
    countInto(record, failure);
    this.#people.set(person, record);
  }

  async signedIn(person: string, at: number): Promise<void> {
    this.signedInNow(person, at);
  }

  /** A person without failures keeps nothing: their next failure opens a period of its own. */
  signedInNow(person: string, at: number): void {
    const kept = this.#people.get(person);
    if (kept && rotate(kept, at)) this.#people.set(person, kept);
  }

  async list(person: string): Promise<FailureList> {
    return this.listNow(person, true);
  }

  listNow(person: string, complete: boolean): FailureList {
    return listOf(this.#people.get(person), this.#now() - this.keepMs, complete);
  }
}

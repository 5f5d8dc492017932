// Each person's failed attempts (a failed sign-in, a wrong current password, a wrong MFA code), counted rather than
// kept one by one: anyone who knows a company and a user ID can repeat a failure at will, and a list of the newest
// events would then hold nothing else. A period per completed sign-in (to the next one), and in it per kind a count,
// the first and the latest; beside them, per kind, the distinct addresses (bounded) and the periods each failed in. The
// interface, the rules both stores follow, and the in-memory store for a single replica.
import { hash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { ACTIVITY_PER_PERSON, expiring } from "#server/stores/memory-bounds.ts";

/** Distinct addresses counted per person and kind, over all the periods; past it the tally says "50+" (issue 30). */
export const ADDRESSES_COUNTED = 50;
/**
 * Periods kept per person, the newest: as many as the activity keeps events, so that every sign-in it still lists
 * opened a period still kept, and the failures since it can be told. At most 30 (a bit each in a 32-bit mask).
 */
export const PERIODS_KEPT = ACTIVITY_PER_PERSON;
/** People whose failures are kept per process, as many as the activity keeps; the least recently written go first. */
export const FAILURE_PEOPLE_MAX = 50_000;

/** One failed attempt. `source` is what counts as one address (addressKey: an IPv6 /64 is one). */
export type Failure = { kind: string; at: number; device: string; address: string; source: string };

/** The failures of one kind in one period, as kept. */
export type StoredTally = {
  count: number;
  first: number;
  last: number;
  /** The latest failure's device and address. */
  device: string;
  address: string;
};

/**
 * From a completed sign-in (`since`) to the next one. `since` is 0 for a period a failure opened, no sign-in being
 * known before it (a person without failures keeps nothing): it began with its first failure.
 */
export type Period = { since: number; tallies: Record<string, StoredTally> };

/**
 * One kind's distinct addresses: each address's tag with a mask of the periods it failed in (bit i: `periods[i]`), and
 * the mask of the periods where an address could not be kept (their count then says "+").
 */
export type Addresses = { seen: [tag: number, periods: number][]; dropped: number };

/** A person's periods, the newest first (at least one, at most PERIODS_KEPT), and their addresses per kind. */
export type FailureRecord = { periods: Period[]; addresses: Record<string, Addresses> };

/** A tally as the pages show it: a stored one's fields, with its kind and its distinct addresses. */
export type Tally = StoredTally & { kind: string; addresses: number; moreAddresses: boolean };

export type FailureList = {
  /**
   * The periods with a tally, the newest first, each with a tally per kind (the newest first), none older than the
   * retention.
   */
  periods: { since: number; tallies: Tally[] }[];
  /**
   * Each kind's failures since the completed sign-in at `at` (the newest first): those of the periods that began at or
   * after it, whatever sign-ins came later, each address counted once.
   */
  since(at: number): Tally[];
  /** False when Redis could not answer: only what this replica counted. */
  complete: boolean;
};

/** A person is `personKey(site, company, user)`. Never rejects. */
export interface FailureTallies {
  /** `knownOnly`: counted only for a person who has activity or failures already (a failed sign-in may name anyone). */
  count(person: string, failure: Failure, knownOnly: boolean): Promise<void>;
  /** A completed sign-in at `at` opens a period; past PERIODS_KEPT the oldest is forgotten. */
  signedIn(person: string, at: number): Promise<void>;
  list(person: string): Promise<FailureList>;
}

/** An address's tag: 30 bits of its digest, a small integer wherever it is kept (a collision only undercounts). */
export const sourceTag = (source: string): number => hash("sha256", source, "buffer").readUInt32BE(0) >>> 2;

/** Every kept period's bit. */
export const ALL_PERIODS = 2 ** PERIODS_KEPT - 1;

/** The newest period in a mask: its lowest bit's index. */
const newestIn = (mask: number): number => 31 - Math.clz32(mask & -mask);

/** Counts the failure into the record, in the period its time falls in (none: too old, it is dropped). */
export function countInto(record: FailureRecord, failure: Failure): void {
  const index = record.periods.findIndex((candidate) => failure.at >= candidate.since);
  const period = record.periods[index];
  if (!period) return;
  const { kind, at, device, address } = failure;
  const tally = period.tallies[kind] ?? { count: 0, first: at, last: at, device, address };
  period.tallies[kind] = tally;
  tally.count += 1;
  tally.first = Math.min(tally.first, at);
  if (at >= tally.last) Object.assign(tally, { last: at, device, address });
  const addresses = record.addresses[kind] ?? { seen: [], dropped: 0 };
  record.addresses[kind] = addresses;
  countAddress(addresses, sourceTag(failure.source), index);
}

/**
 * The address failed in period `index`. When ADDRESSES_COUNTED are kept already, the one whose latest failure is in
 * the oldest period makes room if that is older than `index` (the newest counts stay exact), else this one is dropped.
 */
function countAddress(addresses: Addresses, tag: number, index: number): void {
  const bit = 2 ** index;
  const kept = addresses.seen.find(([seen]) => seen === tag);
  if (kept) {
    kept[1] |= bit;
    return;
  }
  if (addresses.seen.length < ADDRESSES_COUNTED) {
    addresses.seen.push([tag, bit]);
    return;
  }
  const age = (at: number) => newestIn(addresses.seen[at]?.[1] ?? 0);
  const stalest = addresses.seen.reduce((found, _address, at) => (age(at) > age(found) ? at : found), 0);
  if (age(stalest) > index) {
    addresses.dropped |= addresses.seen[stalest]?.[1] ?? 0;
    addresses.seen[stalest] = [tag, bit];
  } else addresses.dropped |= bit;
}

/**
 * The sign-in opens a period, and the oldest past PERIODS_KEPT is forgotten; one not later than the newest period's
 * start changes nothing.
 */
export function rotate(record: FailureRecord, at: number): boolean {
  const [newest] = record.periods;
  if (!newest || at <= newest.since) return false;
  record.periods.unshift({ since: at, tallies: {} });
  record.periods.splice(PERIODS_KEPT);
  for (const [kind, { seen, dropped }] of Object.entries(record.addresses)) {
    const moved = seen.flatMap(([tag, periods]): [number, number][] => {
      const shifted = (periods << 1) & ALL_PERIODS;
      return shifted ? [[tag, shifted]] : [];
    });
    const droppedNow = (dropped << 1) & ALL_PERIODS;
    if (moved.length > 0 || droppedNow) record.addresses[kind] = { seen: moved, dropped: droppedNow };
    else delete record.addresses[kind];
  }
  return true;
}

/** The record as the pages read it, leaving out the tallies whose latest failure is `oldest` or older. */
export function listOf(record: FailureRecord | undefined, oldest: number, complete: boolean): FailureList {
  const periods = record?.periods ?? [];
  const kinds = new Set(periods.flatMap(({ tallies }) => Object.keys(tallies)));
  const newestFirst = (a: Tally, b: Tally) => b.last - a.last || (a.kind < b.kind ? -1 : 1);
  /** Each kind's failures over the periods of `mask` (bit i: `periods[i]`). */
  const over = (mask: number): Tally[] =>
    [...kinds].flatMap((kind) => tallyOver(periods, record?.addresses[kind], kind, mask, oldest)).sort(newestFirst);
  const since = (at: number) =>
    over(periods.reduce((mask, period, index) => (began(period) >= at ? mask | (2 ** index) : mask), 0));
  return {
    periods: periods
      .map(({ since: start }, index) => ({ since: start, tallies: over(2 ** index) }))
      .filter(({ tallies }) => tallies.length > 0),
    since,
    complete,
  };
}

/**
 * One kind's tallies of the periods of `mask` as one (none when it has none newer than `oldest`): counts added, the
 * addresses of those periods each counted once, the latest failure's device and address.
 */
function tallyOver(
  periods: Period[],
  addresses: Addresses | undefined,
  kind: string,
  mask: number,
  oldest: number,
): Tally[] {
  const shown = periods.flatMap(({ tallies }, index) => {
    const tally = tallies[kind];
    return mask & (2 ** index) && tally && tally.last > oldest ? [{ index, tally }] : [];
  });
  const latest = shown
    .map(({ tally }) => tally)
    .reduce<StoredTally | undefined>((a, b) => (a && a.last >= b.last ? a : b), undefined);
  if (!latest) return [];
  const shownMask = shown.reduce((sum, { index }) => sum | (2 ** index), 0);
  return [
    {
      kind,
      count: shown.reduce((sum, { tally }) => sum + tally.count, 0),
      addresses: addresses?.seen.filter(([, seen]) => seen & shownMask).length ?? 0,
      moreAddresses: ((addresses?.dropped ?? 0) & shownMask) !== 0,
      first: Math.min(...shown.map(({ tally }) => tally.first)),
      last: latest.last,
      device: latest.device,
      address: latest.address,
    },
  ];
}

/** When a period began: at its sign-in, or for one a failure opened, at its first failure. */
function began({ since, tallies }: Period): number {
  return since || Math.min(...Object.values(tallies).map(({ first }) => first));
}

export class MemoryFailureTallies implements FailureTallies {
  readonly #people: LRUCache<string, FailureRecord>;

  /**
   * Each person's record is kept `keepMs` after its last write. `known` says whether the person has activity (a
   * failure that may name anyone is counted only then, or when they have failures already).
   */
  constructor(
    private readonly keepMs: number,
    private readonly known: (person: string) => boolean,
    private readonly now: () => number,
    max = FAILURE_PEOPLE_MAX,
  ) {
    this.#people = new LRUCache<string, FailureRecord>(expiring(max, keepMs, now));
  }

  async count(person: string, failure: Failure, knownOnly: boolean): Promise<void> {
    const kept = this.#people.get(person);
    if (!kept && knownOnly && !this.known(person)) return;
    const record = kept ?? { periods: [{ since: 0, tallies: {} }], addresses: {} };
    countInto(record, failure);
    this.#people.set(person, record);
  }

  /** A person without failures keeps nothing: their next failure opens a period of its own. */
  async signedIn(person: string, at: number): Promise<void> {
    const kept = this.#people.get(person);
    if (kept && rotate(kept, at)) this.#people.set(person, kept);
  }

  async list(person: string): Promise<FailureList> {
    return listOf(this.#people.get(person), this.now() - this.keepMs, true);
  }
}

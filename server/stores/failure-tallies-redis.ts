// Each person's counted failures shared through Redis: one JSON value per person, written by one script per step, so
// replicas counting at once never lose a count. This replica keeps a copy of what it counted, to answer while Redis
// cannot; what Redis could not take waits here, bounded, and is sent when it returns (each step lands in the period its
// time falls in, so the order they arrive in barely matters).
import { storedLabel } from "#server/security/device-label.ts";
import {
  ADDRESSES_COUNTED,
  type Addresses,
  ALL_PERIODS,
  type Failure,
  type FailureList,
  type FailureRecord,
  type FailureTallies,
  listOf,
  MemoryFailureTallies,
  PERIODS_KEPT,
  type Period,
  type StoredTally,
  sourceTag,
} from "#server/stores/failure-tallies.ts";
import { type RedisKeys, wholeMs } from "#server/stores/redis-keys.ts";
import { jsonOf, type RedisLink } from "#server/stores/redis-link.ts";
import type { Scripts } from "#server/stores/redis-scripts.ts";
import { WaitingSteps } from "#server/stores/waiting-steps.ts";

type Step =
  | { person: string; step: "count"; failure: Failure; knownOnly: boolean }
  | { person: string; step: "signed-in"; at: number };

export class RedisFailureTallies implements FailureTallies {
  readonly #local: MemoryFailureTallies;
  /** What Redis has not taken yet: every step, in order (a count is never replaced). */
  readonly waiting: WaitingSteps<Step>;

  /**
   * `keepMs`: how long a person's record is kept after its last write. `knownKey`: the Redis key whose existence says
   * the person has activity (their activity list's); `knownHere`, whether this replica's copy of it does.
   */
  constructor(
    private readonly link: RedisLink,
    private readonly keys: RedisKeys,
    private readonly keepMs: number,
    private readonly knownKey: (person: string) => string,
    knownHere: (person: string) => boolean,
  ) {
    this.#local = new MemoryFailureTallies(keepMs, knownHere, link.now);
    this.waiting = new WaitingSteps<Step>(link, (pipeline, step) => void this.#write(pipeline, step));
  }

  async count(person: string, failure: Failure, knownOnly: boolean): Promise<void> {
    await this.#local.count(person, failure, knownOnly);
    await this.#send({ person, step: "count", failure, knownOnly });
  }

  async signedIn(person: string, at: number): Promise<void> {
    await this.#local.signedIn(person, at);
    await this.#send({ person, step: "signed-in", at });
  }

  async list(person: string): Promise<FailureList> {
    return this.link.either(
      async (redis) => {
        const stored = await redis.get(this.keys.failures(person));
        return listOf(stored === null ? undefined : parseRecord(stored), this.link.now() - this.keepMs, true);
      },
      async () => ({ ...(await this.#local.list(person)), complete: false }),
    );
  }

  #send(step: Step): Promise<void> {
    return this.waiting.send(step, async () => void (await this.#write(this.link.commands, step)), undefined);
  }

  #write<R>(target: Scripts<"portalFailureCount" | "portalFailureSignedIn", R>, step: Step): R {
    const key = this.keys.failures(step.person);
    const ttl = String(wholeMs(this.keepMs));
    if (step.step === "signed-in") return target.portalFailureSignedIn(key, String(step.at), ttl, String(PERIODS_KEPT));
    const { kind, at, device, address, source } = step.failure;
    return target.portalFailureCount(
      key,
      this.knownKey(step.person),
      kind,
      String(at),
      String(sourceTag(source)),
      device,
      address,
      String(ADDRESSES_COUNTED),
      ttl,
      step.knownOnly ? "1" : "0",
    );
  }
}

/** A record as Redis gave it back, checked again: what does not read as one (one kept before the periods) is none. */
function parseRecord(text: string): FailureRecord | undefined {
  const stored = objectOr(jsonOf(text));
  if (!Array.isArray(stored.periods)) return undefined;
  const periods = stored.periods.slice(0, PERIODS_KEPT).map(parsePeriod);
  if (periods.length === 0 || !periods.every((period) => period !== undefined)) return undefined;
  const addresses: Record<string, Addresses> = {};
  for (const [kind, value] of Object.entries(objectOr(stored.addresses))) {
    const parsed = parseAddresses(value);
    if (parsed) addresses[kind] = parsed;
  }
  return { periods, addresses };
}

function parsePeriod(value: unknown): Period | undefined {
  const { since, tallies } = objectOr(value);
  if (typeof since !== "number" || typeof tallies !== "object" || tallies === null) return undefined;
  const kept: Record<string, StoredTally> = {};
  for (const [kind, tally] of Object.entries(tallies)) {
    const parsed = parseTally(tally);
    if (parsed) kept[kind] = parsed;
  }
  return { since, tallies: kept };
}

function parseTally(value: unknown): StoredTally | undefined {
  const { count, first, last, device, address } = objectOr(value);
  if (typeof count !== "number" || typeof first !== "number" || typeof last !== "number") return undefined;
  if (typeof device !== "string" || typeof address !== "string") return undefined;
  return { count, first, last, device: storedLabel(device), address };
}

/** A kind's addresses; an empty `seen` comes back from Lua as {}. */
function parseAddresses(value: unknown): Addresses | undefined {
  const { seen, dropped } = objectOr(value);
  if (typeof dropped !== "number") return undefined;
  const pairs = Array.isArray(seen) ? seen : [];
  const kept = pairs.flatMap((pair): [number, number][] => {
    const [tag, periods] = Array.isArray(pair) ? pair : [];
    return Number.isInteger(tag) && Number.isInteger(periods)
      ? [[tag as number, (periods as number) & ALL_PERIODS]]
      : [];
  });
  return {
    seen: kept.filter(([, periods]) => periods !== 0).slice(0, ADDRESSES_COUNTED),
    dropped: dropped & ALL_PERIODS,
  };
}

const objectOr = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};

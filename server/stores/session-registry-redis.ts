// The session registry shared through Redis: per person a sorted set of session ids by start, a hash of entries and a
// hash of "last seen" times; this replica keeps a copy of what it wrote, to answer while Redis cannot.
import type { RedisKeys } from "#server/stores/redis-keys.ts";
import { wholeMs } from "#server/stores/redis-keys.ts";
import type { RedisLink } from "#server/stores/redis-link.ts";
import {
  MemorySessionRegistry,
  SESSIONS_PER_PERSON,
  type SessionEntry,
  type SessionList,
  type SessionRegistry,
} from "#server/stores/session-registry.ts";

/** The hash field that marks a person whose oldest session the bound ended (never a session id). */
const TRIMMED = "";

type Stored = Omit<SessionEntry, "sid" | "seen">;

export class RedisSessionRegistry implements SessionRegistry {
  readonly #local: MemorySessionRegistry;

  constructor(
    private readonly link: RedisLink,
    private readonly keys: RedisKeys,
    private readonly lifetimeMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.#local = new MemorySessionRegistry(lifetimeMs, now);
  }

  async add(person: string, entry: SessionEntry): Promise<string[]> {
    const droppedHere = this.#local.addNow(person, entry);
    if (!this.link.usable) return droppedHere;
    try {
      const { order, entries, seen } = this.keys.sessions(person);
      const stored: Stored = {
        began: entry.began,
        device: entry.device,
        address: entry.address,
        ...(entry.timeZone ? { timeZone: entry.timeZone } : {}),
      };
      return await this.link.commands.portalSessionAdd(
        order,
        entries,
        seen,
        entry.sid,
        String(entry.began),
        JSON.stringify(stored),
        String(entry.seen),
        String(this.now() - this.lifetimeMs),
        String(SESSIONS_PER_PERSON),
        String(wholeMs(this.lifetimeMs)),
      );
    } catch (error) {
      this.link.failed(error);
      return droppedHere;
    }
  }

  async seen(person: string, sid: string, at: number): Promise<void> {
    await this.#local.seen(person, sid, at);
    if (!this.link.usable) return;
    try {
      const { entries, seen } = this.keys.sessions(person);
      await this.link.commands.portalSessionSeen(entries, seen, sid, String(at));
    } catch (error) {
      this.link.failed(error);
    }
  }

  async remove(person: string, sid: string): Promise<void> {
    await this.#local.remove(person, sid);
    if (!this.link.usable) return;
    try {
      const { order, entries, seen } = this.keys.sessions(person);
      await this.link.commands.multi().zrem(order, sid).hdel(entries, sid).hdel(seen, sid).exec();
    } catch (error) {
      // Not retried: the session's id is revoked, so the list leaves it out, and its entry expires with it.
      this.link.failed(error);
    }
  }

  async list(person: string): Promise<SessionList> {
    if (this.link.usable) {
      try {
        return await this.#read(person);
      } catch (error) {
        this.link.failed(error);
      }
    }
    return { ...(await this.#local.list(person)), complete: false };
  }

  async #read(person: string): Promise<SessionList> {
    const { entries, seen } = this.keys.sessions(person);
    const [stored, seenTimes] = await Promise.all([
      this.link.commands.hgetall(entries),
      this.link.commands.hgetall(seen),
    ]);
    const oldest = this.now() - this.lifetimeMs;
    const sessions: SessionEntry[] = [];
    for (const [sid, text] of Object.entries(stored)) {
      if (sid === TRIMMED) continue;
      const entry = parseStored(text);
      if (!entry || entry.began <= oldest) continue;
      sessions.push({ sid, ...entry, seen: Number(seenTimes[sid] ?? entry.began) || entry.began });
    }
    sessions.sort((a, b) => b.began - a.began);
    return { sessions, complete: true, trimmed: TRIMMED in stored };
  }
}

function parseStored(text: string): Stored | undefined {
  try {
    const value = JSON.parse(text) as Partial<Stored>;
    if (typeof value.began !== "number" || typeof value.device !== "string" || typeof value.address !== "string")
      return undefined;
    const timeZone = typeof value.timeZone === "string" ? { timeZone: value.timeZone } : {};
    return { began: value.began, device: value.device, address: value.address, ...timeZone };
  } catch {
    return undefined;
  }
}

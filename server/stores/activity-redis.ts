// Recent security events shared through Redis: a capped list per person that expires with its newest event; this
// replica keeps a copy of what it wrote, to answer while Redis cannot.
import {
  ACTIVITY_PER_PERSON,
  type ActivityList,
  type ActivityRecord,
  type ActivityStore,
  MemoryActivity,
} from "#server/stores/activity.ts";
import { type RedisKeys, wholeMs } from "#server/stores/redis-keys.ts";
import type { RedisLink } from "#server/stores/redis-link.ts";

export class RedisActivity implements ActivityStore {
  readonly #local: MemoryActivity;

  constructor(
    private readonly link: RedisLink,
    private readonly keys: RedisKeys,
    private readonly retentionMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.#local = new MemoryActivity(retentionMs, now);
  }

  async record(person: string, record: ActivityRecord, knownOnly = false): Promise<void> {
    this.#local.recordNow(person, record, knownOnly);
    if (!this.link.usable) return;
    try {
      const key = this.keys.activity(person);
      const line = JSON.stringify(record);
      const multi = this.link.commands.multi();
      // LPUSHX adds only to a list that exists: a name nobody signed in with leaves nothing behind.
      await (knownOnly ? multi.lpushx(key, line) : multi.lpush(key, line))
        .ltrim(key, 0, ACTIVITY_PER_PERSON - 1)
        .pexpire(key, wholeMs(this.retentionMs))
        .exec();
    } catch (error) {
      this.link.failed(error);
    }
  }

  async recent(person: string): Promise<ActivityList> {
    if (this.link.usable) {
      try {
        const lines = await this.link.commands.lrange(this.keys.activity(person), 0, ACTIVITY_PER_PERSON - 1);
        const oldest = this.now() - this.retentionMs;
        const events = lines.map(parseRecord).filter((record): record is ActivityRecord => (record?.at ?? 0) > oldest);
        return { events, complete: true };
      } catch (error) {
        this.link.failed(error);
      }
    }
    return { ...(await this.#local.recent(person)), complete: false };
  }
}

function parseRecord(text: string): ActivityRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<ActivityRecord>;
    const { event, at, device, address } = value;
    if (typeof event !== "string" || typeof at !== "number" || typeof device !== "string") return undefined;
    return { event, at, device, address: typeof address === "string" ? address : "" };
  } catch {
    return undefined;
  }
}

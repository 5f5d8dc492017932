// The names the shared stores use in Redis, all under REDIS_KEY_PREFIX so that several portals can share one Redis.

export type RedisKeys = {
  revoked(sid: string): string;
  /** SCAN's MATCH pattern for every revoked id of this portal. */
  revokedPattern: string;
  /** Where a revoked id is announced to the other replicas. */
  channel: string;
  /** A person's mark "sessions begun before T are ended" (server/stores/person-marks-redis.ts), and its pattern. */
  mark(person: string): string;
  markPattern: string;
  /** Where a new mark is announced. */
  markChannel: string;
  count(key: string): string;
  lock(key: string): string;
  /**
   * A person's list of one kind (server/stores/person-lists.ts): ids ordered by time, the items, their "last seen"
   * times. The session registry's are `sessions:<person>:…`, the security activity's `events:<person>:…`.
   */
  list(name: string, person: string): { order: string; entries: string; seen: string };
  /** A person's counted failures (server/stores/failure-tallies.ts): one JSON value. */
  failures(person: string): string;
};

/** SCAN reads `*`, `?`, `[` and `\` in a pattern as globs; the prefix is meant literally. */
const literal = (text: string): string => text.replace(/[*?[\]\\]/g, (char) => `\\${char}`);

export function redisKeys(prefix: string): RedisKeys {
  return {
    revoked: (sid) => `${prefix}revoked:${sid}`,
    revokedPattern: `${literal(prefix)}revoked:*`,
    channel: `${prefix}revocations`,
    mark: (person) => `${prefix}ended-before:${person}`,
    markPattern: `${literal(prefix)}ended-before:*`,
    markChannel: `${prefix}person-marks`,
    count: (key) => `${prefix}count:${key}`,
    lock: (key) => `${prefix}lock:${key}`,
    list: (name, person) => ({
      order: `${prefix}${name}:${person}:order`,
      entries: `${prefix}${name}:${person}:entries`,
      seen: `${prefix}${name}:${person}:seen`,
    }),
    failures: (person) => `${prefix}failures:${person}`,
  };
}

/** PX and PEXPIRE take whole milliseconds, at least 1. */
export const wholeMs = (ms: number): number => Math.max(1, Math.ceil(ms));

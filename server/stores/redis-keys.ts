// The names the shared stores use in Redis, all under REDIS_KEY_PREFIX so that several portals can share one Redis.

export type RedisKeys = {
  /** A session's record, its ending, and a person's session ids (server/stores/ledger-redis.ts). */
  record(id: string): string;
  ending(id: string): string;
  sessionsOf(person: string): string;
  /** Where the ledger's writes and endings are announced to the other replicas. */
  channel: string;
  count(key: string): string;
  lock(key: string): string;
  /**
   * A person's list of one kind (server/stores/person-lists.ts): ids ordered by time, and the items. The security
   * activity's are `events:<person>:…`, the trusted browsers' `devices:<person>:…`.
   */
  list(name: string, person: string): { order: string; entries: string };
  /** A person's counted failures (server/stores/failure-tallies.ts): one JSON value. */
  failures(person: string): string;
};

export function redisKeys(prefix: string): RedisKeys {
  return {
    record: (id) => `${prefix}session:${id}`,
    ending: (id) => `${prefix}session-ended:${id}`,
    sessionsOf: (person) => `${prefix}sessions-of:${person}`,
    channel: `${prefix}ledger`,
    count: (key) => `${prefix}count:${key}`,
    lock: (key) => `${prefix}lock:${key}`,
    list: (name, person) => ({
      order: `${prefix}${name}:${person}:order`,
      entries: `${prefix}${name}:${person}:entries`,
    }),
    failures: (person) => `${prefix}failures:${person}`,
  };
}

/** PX and PEXPIRE take whole milliseconds, at least 1. */
export const wholeMs = (ms: number): number => Math.max(1, Math.ceil(ms));

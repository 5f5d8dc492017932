// How much the in-memory stores keep at most. Each reads time from the app's `now` (the tests' fake clock), which it
// hands lru-cache as `perf` too, so an entry's TTL ends on that clock.

/**
 * Counters kept per process, each kind (`<group>|<kind>|…`) bounded on its own, its least recently hit going first: a
 * flood of one kind pushes out only that kind's counts (docs/decisions.md, "Shared state"). Anyone makes `ip`, `user`,
 * `person` (attempts) and `pace` (a name past its hourly bound); a passed password or code the rest (`other`: none).
 */
export const COUNTER_BOUNDS = {
  ip: 50_000,
  user: 50_000,
  person: 50_000,
  known: 50_000,
  accepted: 50_000,
  device: 20_000,
  pace: 20_000,
  strikes: 50_000,
  other: 1_000,
};
/** Locks held at once per process. */
export const LOCKS_MAX = 50_000;
/**
 * Security events kept per person, the newest (in memory and in Redis alike); the failures' periods are kept as many,
 * so every sign-in the activity lists still has its count.
 */
export const ACTIVITY_PER_PERSON = 20;

/**
 * At most `limit` entries, the least recently used going first, in constant time. Counted with `maxSize` rather than
 * `max`, which would allocate its arrays for `limit` entries up front (15 MB for the three stores of every app).
 */
export const bounded = (limit: number) => ({ maxSize: limit, sizeCalculation: () => 1 });

/**
 * `bounded`, each entry dropped `ttl` ms after it was set on the app's clock `now` (lru-cache reads time through
 * `perf.now()`, and checks it on every read: `ttlResolution: 0`).
 */
export const expiring = (limit: number, ttl: number, now: () => number) =>
  ({ ...bounded(limit), ttl, ttlResolution: 0, perf: { now } }) as const;

// How much the in-memory stores keep at most, and the clock they read (the tests' fake clock, or the real one).
import type { Perf } from "lru-cache";

/**
 * Revoked ids kept per process. A revocation needs a sign-in the upstream accepted, so reaching this within
 * SESSION_MAX_HOURS is not cheap; past it the oldest is forgotten first (docs/decisions.md, "Shared state").
 */
export const REVOCATIONS_MAX = 200_000;
/** Throttle and strike counters kept per process; the least recently hit goes first, in constant time. */
export const COUNTERS_MAX = 100_000;
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
export function bounded(limit: number): { maxSize: number; sizeCalculation: () => number } {
  return { maxSize: limit, sizeCalculation: () => 1 };
}

/** lru-cache reads time through `perf.now()`; an app's `now` (milliseconds) serves as well. */
export function clockOf(now: (() => number) | undefined): Perf | undefined {
  return now ? { now } : undefined;
}

// Waiting in tests: for a condition that comes about in the background, and how long some work took.
import { setTimeout as delay } from "node:timers/promises";

/**
 * How much longer than on a quiet machine a test's deadlines are: TEST_TIME_FACTOR, which `npm test` sets from the
 * machine's load (scripts/test-parts.sh); 1 when unset. Every deadline a test relies on but does not control goes
 * through `scaled`, so a busy machine waits longer instead of failing.
 */
export const TIME_FACTOR = Math.max(1, Number(process.env.TEST_TIME_FACTOR) || 1);

/** `ms` stretched by the suite's factor. */
export const scaled = (ms: number): number => Math.round(ms * TIME_FACTOR);

/** Waits until `check` holds, polling; fails after `timeoutMs`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 5_000,
  what = "condition",
): Promise<void> {
  const deadline = Date.now() + scaled(timeoutMs);
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(20);
  }
}

/** How long `work` took, in milliseconds. */
export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
}

/** A promise the test settles itself: `open()` resolves `opened`, once. */
export function latch(): { opened: Promise<void>; open(): void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

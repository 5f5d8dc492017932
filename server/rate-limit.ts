// Throttling of sign-in, reset and MFA: a fixed one-minute window per client IP and per user, in this process's memory.
export type Limits = { perIp: number; perUser: number };

/** What the routes ask of a limiter: the one below counts per replica; a shared store would count for all of them. */
export interface AttemptLimiter {
  /** Counts one attempt; false when the IP or the user has used up the window. */
  allow(group: string, ip: string, user: string | undefined): boolean;
}

const WINDOW_MS = 60_000;

export class RateLimiter implements AttemptLimiter {
  #hits = new Map<string, { count: number; until: number }>();

  constructor(
    private readonly limits: Limits,
    private readonly now: () => number,
  ) {}

  /** Counts one attempt; false when the IP or the user has used up the window. */
  allow(group: string, ip: string, user: string | undefined): boolean {
    const time = this.now();
    if (this.#hits.size > 50_000) this.#prune(time);
    const overIp = this.#count(`${group}|ip|${ip}`, time) > this.limits.perIp;
    const overUser = user ? this.#count(`${group}|user|${user.toLowerCase()}`, time) > this.limits.perUser : false;
    return !overIp && !overUser;
  }

  #count(key: string, time: number): number {
    const entry = this.#hits.get(key);
    if (!entry || entry.until <= time) {
      this.#hits.set(key, { count: 1, until: time + WINDOW_MS });
      return 1;
    }
    entry.count += 1;
    return entry.count;
  }

  #prune(time: number): void {
    for (const [key, entry] of this.#hits) if (entry.until <= time) this.#hits.delete(key);
  }
}

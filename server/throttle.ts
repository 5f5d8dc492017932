// Throttling of sign-in, reset and MFA: failures counted per address and per person (site, company and user, trimmed
// and case-folded), in one-minute windows; a person over a limit is told when to try again.
import type { FastifyRequest } from "fastify";
import type { CounterStore } from "#server/stores/counters.ts";

export type ThrottleGroup = "sign-in" | "reset" | "mfa";
export type Limits = { perIp: number; perUser: number };

export const WINDOW_MS = 60_000;

/** The person an attempt counts against: site, company and user, each trimmed and case-folded. */
export const personKey = (...parts: (string | undefined)[]) =>
  parts.map((part) => (part ?? "").trim().toLowerCase()).join("/");

export class Throttle {
  constructor(
    private readonly counters: CounterStore,
    private readonly limits: Limits,
  ) {}

  #keys(group: ThrottleGroup, request: FastifyRequest, person: string | undefined) {
    const keys = [{ key: `${group}|ip|${request.ip}`, limit: this.limits.perIp }];
    if (person) keys.push({ key: `${group}|user|${person}`, limit: this.limits.perUser });
    return keys;
  }

  /** Seconds to wait when the address or the person has used up the window; undefined when they may go on. */
  async wait(group: ThrottleGroup, request: FastifyRequest, person: string | undefined): Promise<number | undefined> {
    let wait: number | undefined;
    for (const { key, limit } of this.#keys(group, request, person)) {
      const { count, resetInMs } = await this.counters.peek(key);
      if (count >= limit) wait = Math.max(wait ?? 0, Math.ceil(resetInMs / 1000) || 1);
    }
    return wait;
  }

  /** Counts one failed (or, for what sends e-mail, any) attempt against the address and the person. */
  async count(group: ThrottleGroup, request: FastifyRequest, person: string | undefined): Promise<void> {
    await Promise.all(this.#keys(group, request, person).map(({ key }) => this.counters.hit(key, WINDOW_MS)));
  }
}

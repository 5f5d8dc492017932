// Throttling of sign-in, reset and MFA: attempts counted per address and per person (site, company and user, trimmed
// and case-folded), in one-minute windows, from when they are sent; where only failures count, a success is given
// back. A person over a limit is told when to try again.
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

  /**
   * Takes one attempt against the address and the person, in one atomic count each, so attempts sent in parallel
   * cannot all pass a check made before any of them is counted. Over a limit: the seconds to wait, and the attempt is
   * not counted. Otherwise undefined: the attempt counts until it is given back.
   */
  async take(group: ThrottleGroup, request: FastifyRequest, person: string | undefined): Promise<number | undefined> {
    const keys = this.#keys(group, request, person);
    const counts = await Promise.all(keys.map(({ key }) => this.counters.hit(key, WINDOW_MS)));
    let wait: number | undefined;
    counts.forEach(({ count, resetInMs }, index) => {
      if (count > (keys[index]?.limit ?? 0)) wait = Math.max(wait ?? 0, Math.ceil(resetInMs / 1000) || 1);
    });
    if (wait !== undefined) await this.giveBack(group, request, person);
    return wait;
  }

  /** An attempt that succeeded (where only failures count): its count is given back. */
  async giveBack(group: ThrottleGroup, request: FastifyRequest, person: string | undefined): Promise<void> {
    await Promise.all(this.#keys(group, request, person).map(({ key }) => this.counters.giveBack(key)));
  }
}

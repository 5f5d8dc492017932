// Throttling of sign-in, reset and MFA: failures counted per address and per person (site, company and user, trimmed
// and case-folded), in one-minute windows; a person over a limit is told when to try again.
import type { FastifyRequest } from "fastify";
import type { CounterStore } from "#server/stores/counters.ts";

export type ThrottleGroup = "sign-in" | "reset" | "mfa" | "password-test";
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
   * Takes one attempt from the address's and the person's windows before the call leaves, each in one atomic step, so
   * a burst of parallel attempts cannot all pass one check: `wait` is the seconds to wait when a window is used up
   * (the attempt is then given back). `giveBack` returns an attempt that is not to be counted (a success, where only
   * failures count).
   */
  async take(
    group: ThrottleGroup,
    request: FastifyRequest,
    person: string | undefined,
  ): Promise<{ wait: number | undefined; giveBack: () => Promise<void> }> {
    const keys = this.#keys(group, request, person);
    const counts = await Promise.all(keys.map(({ key }) => this.counters.hit(key, WINDOW_MS)));
    const giveBack = async () => {
      await Promise.all(keys.map(({ key }) => this.counters.giveBack(key)));
    };
    let wait: number | undefined;
    counts.forEach(({ count, resetInMs }, index) => {
      if (count > (keys[index]?.limit ?? 0)) wait = Math.max(wait ?? 0, Math.ceil(resetInMs / 1000) || 1);
    });
    if (wait !== undefined) await giveBack();
    return { wait, giveBack };
  }
}

// Throttling of sign-in, reset, MFA and password tests, built so that it slows an attacker but cannot be used to lock
// the owner out (OWASP's brute-force guidance): failures are counted per address (IPv6 by /64) and per person *at*
// that address, each in one-minute windows that refuse; across all addresses a person has a much higher hourly
// bound, past which each attempt waits longer than the one before, instead of being refused outright. An address
// where the person's attempt passed before, and a browser holding the person's device cookie, are not held by that
// slowing: nothing sent from elsewhere spends their budget. The current-password test is paced by the same hourly
// bound, per signed-in person across their sessions and addresses: a stolen session guesses no faster than a sign-in.
import type { FastifyReply, FastifyRequest } from "fastify";
import { addressKey, clientAddress } from "#server/security/address-key.ts";
import type { DeviceCookies } from "#server/security/device-cookie.ts";
import type { CounterStore } from "#server/stores/counters.ts";

export type ThrottleGroup = "sign-in" | "reset" | "mfa" | "password-test" | "password-change";
export type Limits = { perIp: number; perUser: number };
/**
 * Whose attempt it is, which says the budgets it spends:
 * - `named`: a person the request names (anyone can name anyone): the scheme above.
 * - `session`: the person of the request's own signed-in session (only that person's password opens it, so a plain
 *   per-person limit cannot be turned on them), beside the address's budget.
 * - `pending`: the person of a sign-in waiting for its MFA code. Its password passed, so the person's own budget pays
 *   and not the address's (an office signing in together spends nothing of it); and as at sign-in, a browser holding
 *   the person's device cookie has a budget of its own, which anyone who knows the password cannot spend from elsewhere.
 */
export type Whose = "named" | "session" | "pending";

export const WINDOW_MS = 60_000;
export const HOUR_MS = 3_600_000;
/** A person's attempts across every address, per hour, before each further one waits: this many times `perUser`. */
export const PERSON_HOURLY_FACTOR = 10;
/** The n-th attempt past the hourly bound waits n seconds after the one before, up to this many. */
export const MAX_PACE_S = 60;
/** How long an address where a person's code last passed stays known for that person. */
export const KNOWN_ADDRESS_MS = 30 * 24 * HOUR_MS;
/**
 * A name the upstream never accepted (none of its attempts passed within KNOWN_ADDRESS_MS) is counted across
 * addresses in windows this short, with the hourly bound cut in proportion: the same pace, but what a failed attempt
 * under a made-up name leaves in Redis is gone in minutes, not an hour (docs/decisions.md, "Shared state").
 */
export const UNACCEPTED_WINDOW_MS = HOUR_MS / 10;

/**
 * Groups whose attempts come from the person's own session and are paced across the hour all the same: a stolen
 * session must not guess the current password faster than a sign-in could.
 */
const PACED_IN_SESSION: ReadonlySet<ThrottleGroup> = new Set(["password-test"]);

/** The seconds the n-th attempt past the hourly bound waits after the previous one. */
export const paceSeconds = (past: number) => Math.min(Math.max(past, 1), MAX_PACE_S);

type Window = { key: string; limit: number; windowMs: number };
const isAddressWindow = ({ key }: Window) => key.split("|", 2)[1] === "ip";

/** What one attempt took from the budgets before its call left; server/actions/attempt.ts settles it. */
export type Taken = {
  /** Seconds to wait when a limit is reached (the attempt was then not taken: nothing is left to give back). */
  wait: number | undefined;
  /** Returns the attempt to every window it was taken from. */
  giveBack: () => Promise<void>;
  /** The upstream accepted the attempt: for an MFA code that signed the person in, the address and the browser are known. */
  /** The upstream accepted it; `device` is the id its call carried (an MFA validation's). */
  passed: (reply: FastifyReply, device?: string) => Promise<void>;
};

export class Throttle {
  constructor(
    private readonly counters: CounterStore,
    private readonly limits: Limits,
    private readonly devices?: DeviceCookies,
  ) {}

  /**
   * Takes one attempt from each window that applies before the call leaves, each in one atomic step, so a burst of
   * parallel attempts cannot all pass one check; an attempt a window refuses is given back at once.
   */
  async take(
    group: ThrottleGroup,
    request: FastifyRequest,
    person: string | undefined,
    whose: Whose = "named",
  ): Promise<Taken> {
    const address = addressKey(clientAddress(request));
    const { perIp, perUser } = this.limits;
    const windows: Window[] = [];
    const minute = (key: string, limit: number) => windows.push({ key, limit, windowMs: WINDOW_MS });
    const known = `${group}|known|${person}|${address}`;
    let unknown: (() => Promise<boolean>) | undefined;
    // Paced wherever it comes from: only the owner's password opened the session, but a stolen one travels.
    const pacedInSession = person !== undefined && whose === "session" && PACED_IN_SESSION.has(group);
    const device = person && whose !== "session" ? this.devices?.deviceOf(request, person) : undefined;
    if (device) {
      // The owner's own browser: a budget of its own, whatever anyone sends from elsewhere or from its address.
      minute(`${group}|device|${device}|${person}`, perUser);
    } else {
      // A pending sign-in's password passed: the person's budget pays, not the address's (an office signing in).
      if (!(whose === "pending" && person)) minute(`${group}|ip|${address}`, perIp);
      if (person && whose !== "named") minute(`${group}|user|${person}`, perUser);
      if (person && whose === "named") {
        minute(`${group}|user|${person}|${address}`, perUser);
        // Asked beside the person's windows, not before them: one round trip to Redis less.
        unknown = () => this.counters.peek(known).then(({ count }) => count === 0);
      }
    }
    const taken: string[] = [];
    const giveBack = async () => {
      await Promise.all(taken.map((key) => this.counters.giveBack(key)));
    };
    const take = async (some: Window[]) => {
      const counts = await Promise.all(some.map(({ key, windowMs }) => this.counters.hit(key, windowMs)));
      taken.push(...some.map(({ key }) => key));
      let over: number | undefined;
      counts.forEach(({ count, resetInMs }, index) => {
        if (count > (some[index]?.limit ?? 0)) over = Math.max(over ?? 0, seconds(resetInMs));
      });
      return over;
    };
    // The address's window first: an attempt it refuses makes no count under the name it gave, so a flood of made-up
    // names from one address leaves as many keys as its limit lets through, not one per name.
    let wait = await take(windows.filter(isAddressWindow));
    let paced = false;
    if (wait === undefined) {
      const others = windows.filter((window) => !isAddressWindow(window));
      [wait, paced] = await Promise.all([take(others), unknown?.() ?? false]);
    }
    if (wait === undefined && person && (paced || pacedInSession))
      wait = await this.#pace(group, person, perUser, taken, pacedInSession);
    if (wait !== undefined) await giveBack();
    const passed = async (reply: FastifyReply, device?: string) => {
      if (!person) return;
      // A passed sign-in is an MFA code that promoted the session: only then is its address known and its browser the
      // person's device (a password alone, or a reset that answers alike for anyone, earns neither).
      if (whose === "pending" && request.auth?.stage === "signed-in")
        return this.#signedIn(request, reply, person, device);
      // The upstream accepted the name (a password it took): from then on its counts across addresses are hourly.
      if (whose === "named" && group === "sign-in")
        await this.counters.hit(acceptedKey(group, person), KNOWN_ADDRESS_MS);
    };
    return { wait, giveBack, passed };
  }

  /** A sign-in passed MFA: the address is known for the person's sign-ins, and the browser is the person's device. */
  async #signedIn(request: FastifyRequest, reply: FastifyReply, person: string, device?: string): Promise<void> {
    // Each passed code starts the 30 days again: an address stays known for 30 days after the last sign-in there.
    const renew = async (key: string) => {
      await this.counters.clear(key);
      await this.counters.hit(key, KNOWN_ADDRESS_MS);
    };
    await Promise.all([
      renew(`sign-in|known|${person}|${addressKey(clientAddress(request))}`),
      renew(acceptedKey("sign-in", person)),
    ]);
    // The id the validation carried upstream, which now remembers the code for it (requirements 4.2's device memory).
    this.devices?.remember(request, reply, person, device);
  }

  /**
   * The person's hourly bound across addresses: past it, the n-th further attempt may leave only n seconds (up to
   * MAX_PACE_S) after the previous one; earlier ones wait. Answers the wait, or undefined when the attempt may go.
   * A session's person (`inSession`) is one the upstream accepted: their window is the hour.
   */
  async #pace(
    group: ThrottleGroup,
    person: string,
    perUser: number,
    taken: string[],
    inSession: boolean,
  ): Promise<number | undefined> {
    const across = `${group}|person|${person}`;
    const accepted = inSession || (await this.counters.peek(acceptedKey(group, person))).count > 0;
    const windowMs = accepted ? HOUR_MS : UNACCEPTED_WINDOW_MS;
    const { count } = await this.counters.hit(across, windowMs);
    taken.push(across);
    const past = count - Math.ceil((perUser * PERSON_HOURLY_FACTOR * windowMs) / HOUR_MS);
    if (past <= 0) return undefined;
    const gate = `${group}|pace|${person}`;
    const { count: waiting, resetInMs } = await this.counters.hit(gate, paceSeconds(past) * 1000);
    // The first attempt in the gate's window goes and holds it closed; the others wait for it to open.
    return waiting > 1 ? seconds(resetInMs) : undefined;
  }
}

/** Set when the upstream accepts an attempt of the person's: from then on their counts across addresses are hourly. */
const acceptedKey = (group: ThrottleGroup, person: string) => `${group}|accepted|${person}`;

const seconds = (ms: number) => Math.ceil(ms / 1000) || 1;

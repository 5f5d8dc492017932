// The device cookie: a browser that passed a sign-in as a person keeps, for that person, a budget of attempts of its
// own, which failures from elsewhere cannot spend (OWASP's "device cookies" against brute force), and the device id its
// MFA code is remembered for upstream. It is a long-lived HttpOnly cookie holding, for each of the last few people who
// signed in on the browser, a random device id and a MAC over that id and the person; no person is readable in it.
//
// And the browser an MFA validation comes from: the device id it carries upstream (openapi/portal.yaml's
// X-Device-Id), so that the upstream remembers a passed code for this browser only (requirements 4.2). The device
// cookie keeps that id once the code passed (the throttle's passed sign-in grants it, server/security/throttle.ts).
// The id is the portal's own, from its MAC'ed device cookie or freshly drawn: never a value the browser sends, and
// never in a URL. The cookie's id is sent only while the person's trusted browsers list it
// (server/stores/trusted-devices.ts): a forgotten or lapsed browser is a new one to the upstream, which then asks for
// a code. Such a browser's silent check of its stored code is answered here, never sent upstream: it could only be
// refused, and a refusal would cost the sign-in a wrong code.
import { randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { components } from "#openapi/schema.ts";
import { sessionPerson } from "#server/account/person.ts";
import type { Check } from "#server/actions/checks.ts";
import type { Call } from "#server/actions/rules.ts";
import type { AppContext } from "#server/context.ts";
import { clientAddress } from "#server/security/address-key.ts";
import { deviceLabel } from "#server/security/device-label.ts";
import { CookieMac } from "#server/session/cookie-mac.ts";

/** How long a device stays known after its last passed sign-in. */
export const DEVICE_MAX_AGE_S = 180 * 24 * 3600;
/**
 * How many people one browser is a device of: the newest to sign in on it. People taking turns on one browser (a
 * shared office PC, two companies' accounts of one person) each keep theirs; past this many, the longest unused goes.
 */
export const DEVICE_PEOPLE_MAX = 5;

export const deviceCookieName = (secure: boolean) => (secure ? "__Host-portal-device" : "portal-device");

/** One person's entry: `<id>.<mac>`; entries are joined by `~` (no character of either, nor one a cookie escapes). */
const ENTRY = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;
const SEPARATOR = "~";

type Entry = { id: string; mac: string };

export class DeviceCookies {
  /** Under a key of its own per session key (the first issues, the others still verify: rotation). */
  readonly #mac: CookieMac;
  readonly #name: string;

  constructor(
    sessionKeys: Buffer[],
    private readonly secure: boolean,
  ) {
    // A key of its own, derived from the session's: a MAC here can never stand for a sealed session. All 32 bytes of
    // the HMAC are kept, as they always were: the cookies browsers hold still verify.
    this.#mac = new CookieMac(sessionKeys, "portal device cookie", 32);
    this.#name = deviceCookieName(secure);
  }

  /** The cookie's entries of a well-formed shape, newest first: never more than DEVICE_PEOPLE_MAX are read. */
  #entries(request: FastifyRequest): Entry[] {
    const value = request.cookies?.[this.#name] ?? "";
    return value
      .split(SEPARATOR, DEVICE_PEOPLE_MAX)
      .map((entry) => entry.match(ENTRY))
      .flatMap((match) => (match ? [{ id: match[1] ?? "", mac: match[2] ?? "" }] : []));
  }

  #isFor({ id, mac }: Entry, person: string): boolean {
    return this.#mac.matches(mac, `${id}\n${person}`);
  }

  /** The device's id when the request carries a device cookie issued to this person; undefined otherwise. */
  deviceOf(request: FastifyRequest, person: string): string | undefined {
    return this.#entries(request).find((entry) => this.#isFor(entry, person))?.id;
  }

  /**
   * The id this browser is known by for the person: its device cookie's, or a fresh random one, which becomes its
   * device cookie only when `remember` is given it (never a value the browser chose).
   */
  idFor(request: FastifyRequest, person: string): string {
    return this.deviceOf(request, person) ?? randomBytes(16).toString("base64url");
  }

  /**
   * After a passed sign-in: the browser is this person's device, by the id given (one `idFor` answered) or else its
   * own (kept when it already was one). The person's entry comes first; the other people's stay, up to the bound.
   */
  remember(request: FastifyRequest, reply: FastifyReply, person: string, id = this.idFor(request, person)): void {
    const mac = this.#mac.of(`${id}\n${person}`);
    if (!mac) return;
    const others = this.#entries(request).filter((entry) => !this.#isFor(entry, person));
    const entries = [{ id, mac }, ...others];
    const value = entries
      .slice(0, DEVICE_PEOPLE_MAX)
      .map((entry) => `${entry.id}.${entry.mac}`)
      .join(SEPARATOR);
    reply.setCookie(this.#name, value, {
      path: "/",
      httpOnly: true,
      secure: this.secure,
      sameSite: "strict",
      maxAge: DEVICE_MAX_AGE_S,
    });
  }
}

/** The header the upstream reads the device id from. */
export const DEVICE_ID_HEADER = "x-device-id";

/**
 * Puts on the call the device id a pending session's validation carries: its device cookie's while trusted, else a
 * fresh one. Found once per call: the silent check's question and the call's device are one answer.
 */
export async function deviceOfValidation(context: AppContext, request: FastifyRequest, call: Call): Promise<void> {
  const person = sessionPerson(request);
  if (call.device !== undefined || person === undefined) return;
  const known = context.devices.deviceOf(request, person);
  call.trusted = Boolean(known && (await request.server.account.devices.trusts(person, known)));
  call.device = call.trusted ? known : randomBytes(16).toString("base64url");
}

/** The verdict the upstream gives a code it refuses (requirements 4.2): the first element's text is not `Passed`. */
const REFUSED: components["schemas"]["MfaVerdict"] = [{ text: "Failed" }];

/**
 * The MFA step's silent check of its stored code (the silent-check flag) from a browser the person does not trust
 * (forgotten, lapsed, or never trusted): the upstream, sent a fresh device id, could only refuse it, so the portal
 * answers that verdict in its place. Nothing is counted: the attempt is given back and no wrong code is struck
 * (server/actions/effects.ts `promoteOnPassed` never runs). The step then drops the code and sends one. Marking a guess
 * as silent gains nothing: from such a browser it never reaches the upstream. A trusted browser's check goes on.
 */
export const answerUntrustedSilentCheck: Check = async ({ context, request, call }) => {
  if (!call.input.flags.silentCheck) return undefined;
  await deviceOfValidation(context, request, call);
  return call.trusted ? undefined : { status: 200, body: REFUSED };
};

/** A code passed on this browser: it skips the code for the person for TRUST_MS from now. */
export async function trustDevice(request: FastifyRequest, call: Call, person: string, at: number): Promise<void> {
  const device = call.device;
  if (!device) return;
  const seen = { device: deviceLabel(request.headers["user-agent"]), address: clientAddress(request) };
  await request.server.account.devices.trust(person, device, seen, at);
}

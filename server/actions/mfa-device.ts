// The browser an MFA validation comes from: the device id it carries upstream (openapi/portal.yaml's X-Device-Id), so
// that the upstream remembers a passed code for this browser only (requirements 4.2). The device cookie keeps that id
// once the code passed (the throttle's passed sign-in grants it, server/security/throttle.ts). The id is the portal's
// own, from its MAC'ed device cookie or freshly drawn: never a value the browser sends, and never in a URL. The
// cookie's id is sent only while the person's trusted browsers list it (server/stores/trusted-devices.ts): a forgotten
// or lapsed browser is a new one to the upstream, which then asks for a code. Such a browser's silent check of its
// stored code is answered here, never sent upstream: it could only be refused, and a refusal would cost the sign-in a
// wrong code.
import { randomBytes } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { components } from "#openapi/schema.ts";
import { sessionPerson } from "#server/account/person.ts";
import type { Check } from "#server/actions/checks.ts";
import type { Call } from "#server/actions/rules.ts";
import type { AppContext } from "#server/context.ts";
import { clientAddress } from "#server/security/address-key.ts";
import { deviceLabel } from "#server/security/device-label.ts";

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

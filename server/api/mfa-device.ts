// The browser an MFA validation comes from: the device id it carries upstream (openapi/portal.yaml's X-Device-Id), so
// that the upstream remembers a passed code for this browser only (requirements 4.2). The device cookie keeps that id
// once the code passed (the throttle's passed sign-in grants it, server/throttle.ts). The id is the portal's own, from
// its MAC'ed device cookie or freshly drawn: never a value the browser sends, and never in a URL. The cookie's id is
// sent only while the person's trusted browsers list it (server/stores/trusted-devices.ts): a forgotten or lapsed
// browser is a new one to the upstream, which then asks for a code.
import { randomBytes } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { sessionPerson } from "#server/account/person.ts";
import { accountOf } from "#server/account/state.ts";
import { clientAddress } from "#server/address-key.ts";
import type { AppContext } from "#server/context.ts";
import { deviceLabel } from "#server/device-label.ts";

/** The header the upstream reads the device id from. */
export const DEVICE_ID_HEADER = "x-device-id";

/** The device id a pending session's validation carries: its device cookie's while trusted, else a fresh one. */
export async function deviceOfValidation(
  context: AppContext,
  request: FastifyRequest,
): Promise<{ device: string; trusted: boolean } | undefined> {
  const person = sessionPerson(request);
  if (person === undefined) return undefined;
  const known = context.devices.deviceOf(request, person);
  if (known && (await accountOf(request).devices.trusts(person, known))) return { device: known, trusted: true };
  return { device: randomBytes(16).toString("base64url"), trusted: false };
}

/** A code passed on this browser: it skips the code for the person for TRUST_MS from now. */
export async function trustDevice(request: FastifyRequest, person: string, at: number): Promise<void> {
  const device = request.upstreamCall?.device;
  if (!device) return;
  const seen = { device: deviceLabel(request.headers["user-agent"]), address: clientAddress(request) };
  await accountOf(request).devices.trust(person, device, seen, at);
}

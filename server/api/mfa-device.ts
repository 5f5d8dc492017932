// The browser an MFA validation comes from: the device id it carries upstream (openapi/portal.yaml's X-Device-Id), so
// that the upstream remembers a passed code for this browser only (requirements 4.2). The device cookie keeps that id
// once the code passed (the throttle's passed sign-in grants it, server/throttle.ts). The id is the portal's own, from
// its MAC'ed device cookie or freshly drawn: never a value the browser sends, and never in a URL.
import type { FastifyRequest } from "fastify";
import { sessionPerson } from "#server/account/person.ts";
import type { AppContext } from "#server/context.ts";

/** The header the upstream reads the device id from. */
export const DEVICE_ID_HEADER = "x-device-id";

/** The device id a pending session's validation carries: its device cookie's for the person, else a fresh one. */
export function deviceOfValidation(context: AppContext, request: FastifyRequest): string | undefined {
  const person = sessionPerson(request);
  return person === undefined ? undefined : context.devices.idFor(request, person);
}

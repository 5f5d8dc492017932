// The browser an MFA validation comes from: the device id it carries upstream (openapi/portal.yaml's X-Device-Id), so
// that the upstream remembers a passed code for this browser only (requirements 4.2), and the device cookie that keeps
// that id once the code passed. The id is the portal's own, from its MAC'ed device cookie or freshly drawn: never a
// value the browser sends, and never in a URL.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "#server/context.ts";
import { personKey } from "#server/throttle.ts";

/** The header the upstream reads the device id from. */
export const DEVICE_ID_HEADER = "x-device-id";

/** The session's person, as the device cookie's MAC names it. */
const personOf = (request: FastifyRequest) =>
  request.auth && personKey(request.auth.site, request.auth.company, request.auth.userName);

/** The device id a pending session's validation carries: its device cookie's for the person, else a fresh one. */
export function deviceOfValidation(context: AppContext, request: FastifyRequest): string | undefined {
  const person = personOf(request);
  return person === undefined ? undefined : context.devices.idFor(request, person);
}

/** A passed code: the browser keeps, as its device cookie, the id the upstream now remembers the code for. */
export function keepDevice(context: AppContext, request: FastifyRequest, reply: FastifyReply): void {
  const id = request.upstreamCall?.device;
  const person = personOf(request);
  if (id !== undefined && person !== undefined) context.devices.remember(request, reply, person, id);
}

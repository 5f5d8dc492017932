// How a session begins (a sign-in, the promotion after a passed code) and ends: `expire` is the only way a request ends
// its session, and `endRecord` the only way a record ends, once, with its security event written by whoever ended it.
import { randomUUID } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { personOf } from "#server/account/person.ts";
import { securityEvent } from "#server/account/security-log.ts";
import { sessionBegan } from "#server/account/sessions.ts";
import { clientAddress } from "#server/security/address-key.ts";
import { deviceLabel } from "#server/security/device-label.ts";
import { type Auth, begin, clear, discard, mayWrite, set } from "#server/session/fields.ts";
import type { SessionRecord } from "#server/session/record.ts";
import { endEvent } from "#server/session/why-ended.ts";
import type { SessionLedger } from "#server/stores/ledger.ts";
import { knownTimeZone } from "#web/components/when.ts";
import { TIME_ZONE_HEADER } from "#web/protocol/headers.ts";
import { type EndReason, unannounced } from "#web/protocol/session-end.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Every session's record: one ledger for the whole app (and, with Redis, every replica). */
    ledger: SessionLedger;
  }
}

/**
 * A new session for a new sign-in (a login answer or a link sign-in). The previous session, whoever it was, ends: a
 * sign-in never carries on an older session's id, strikes or mode. `taxBridge`: the sign-in was made at
 * `/tax-bridge/login`, and its session is in that mode until it ends.
 */
export function beginSignIn(request: FastifyRequest, auth: Auth, now: number, taxBridge = false): void {
  if (!mayWrite(request)) return;
  endRecord(request, "replaced");
  fresh(request, {
    ...where(request),
    person: personOf(auth),
    auth,
    born: now,
    seen: now,
    ...(taxBridge ? { taxBridge } : {}),
  });
}

/** requirements 4.2: a `Passed` code promotes the pending token under a new id; the pending record ends. */
export function promote(request: FastifyRequest, now: number): void {
  const record = request.record;
  if (record?.value.auth.stage !== "pending" || !mayWrite(request)) return;
  const { codeSentAt: _sent, ...kept } = record.value;
  endRecord(request, "replaced");
  fresh(request, { ...kept, auth: { ...kept.auth, stage: "signed-in" }, born: now, seen: now });
}

function fresh(request: FastifyRequest, value: SessionRecord): void {
  begin(request, randomUUID(), value);
  if (value.auth.stage === "signed-in") sessionBegan(request, value.person);
}

/** Where a session is signed in: the device's label, the address, the browser's time zone when it names a known one. */
function where(request: FastifyRequest): Pick<SessionRecord, "device" | "address" | "timeZone"> {
  const zone = request.headers[TIME_ZONE_HEADER.toLowerCase()];
  const known = typeof zone === "string" && zone.length <= 64 && knownTimeZone(zone) === zone;
  return {
    device: deviceLabel(request.headers["user-agent"]),
    address: clientAddress(request),
    ...(known ? { timeZone: zone } : {}),
  };
}

/**
 * A session's record ends in the ledger, once: whoever ends it first writes the ending's security event (the one
 * table, server/session/why-ended.ts), naming where the session was signed in. A copy of its cookie replayed later
 * finds it ended and writes nothing. Answers whether this call ended it.
 */
export async function endSession(
  request: FastifyRequest,
  id: string,
  record: SessionRecord,
  reason: EndReason,
): Promise<boolean> {
  if (record.ended) return false;
  const first = await request.server.ledger.end(id, { at: request.server.account.now(), reason });
  const event = record.auth.stage === "signed-in" ? endEvent(reason) : undefined;
  if (first && event)
    securityEvent(request, event, record.person, id, { device: record.device, address: record.address });
  return first;
}

/** The request's own record ends (not awaited: the ledger holds the ending at once in this replica). */
function endRecord(request: FastifyRequest, reason: EndReason): void {
  const record = request.record;
  if (record) void endSession(request, record.id, record.value, reason);
}

/**
 * requirements 4.5: the upstream refused a call made with this request's session token (its 401 status line, whatever
 * its body): the session ends now. An answer the portal makes up for a fault is a 502 or a 504, never this.
 */
export const refusesToken = (status: number): boolean => status === 401;

export function tokenRefused(request: FastifyRequest, operation: string): void {
  request.log.info({ event: "session-expired", operation }, "upstream refused the token");
  expire(request, "upstream-refused");
}

/**
 * The only way a request ends its session: its record ends (if it had not), the cookie is emptied (its tax-bridge
 * mode goes too: the mode is one sign-in's), and the sign-in page is left the reason to say why
 * (web/texts/login-notices.ts words it), unless the request's own answer says it (`told`: an end the person chose).
 */
export function expire(
  request: FastifyRequest,
  reason: EndReason,
  { told = unannounced(reason) }: { told?: boolean } = {},
): void {
  // A request that may not write the session (another site started it) does not end it either: the session reads as
  // none for the rest of this request, and the person's next request of their own ends it, with its reason.
  if (!mayWrite(request)) {
    request.auth = undefined;
    return;
  }
  endRecord(request, reason);
  clear(request);
  if (!told) set(request, "flash", { ended: reason });
  // Nothing left to carry: the browser drops the cookie instead of keeping an empty one.
  else discard(request);
  request.auth = undefined;
  request.log.info({ event: "session-ended", reason }, "session ended");
}

// The record a browser's session cookie names, read as the portal reads it: how a test sees what a request wrote of
// the session now that its cookie carries only the record's id.
import assert from "node:assert/strict";
import type { PortalClient } from "#harness/portal-client.ts";
import type { SessionRecord } from "#server/session/record.ts";
import { UNAVAILABLE } from "#server/stores/ledger.ts";
import type { PortalInProcess } from "#tests/support/portal.ts";
import { sessionCodec } from "#tests/support/session-codec.ts";

/** The id of the record a visitor's session cookie names, read with the portal's own keys. */
export async function sidOf(portal: PortalInProcess, visitor: PortalClient, cookie = "__Host-portal-session") {
  const value = visitor.cookies.get(cookie) ?? "";
  const sid = (await sessionCodec(portal.config)).decode(encodeURIComponent(value))?.get("sid");
  assert.ok(sid, "the cookie names a record");
  return sid;
}

/** The record the ledger holds under `sid`. */
export async function recordOf(portal: PortalInProcess, sid: string): Promise<SessionRecord> {
  const record = await portal.app.ledger.read(sid);
  assert.ok(record && record !== UNAVAILABLE, "the ledger holds the record");
  return record;
}

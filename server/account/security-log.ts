// The security log: every event's stable name, and the one function that writes its line and keeps it in the
// person's recent activity (listed, or counted for the failures anyone may repeat). A line holds the request id, the
// person, a digest of the session id, the address and the device; never a token, a password or a code.

import { hash } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { nameDigest } from "#server/account/person.ts";
import { addressKey, clientAddress } from "#server/security/address-key.ts";
import { deviceLabel } from "#server/security/device-label.ts";

/** Each event, and what it means (docs/security-log.md lists them). */
export const securityEvents = {
  "sign-in.passed": "The password was accepted; the MFA step follows.",
  "sign-in.failed": "A sign-in was refused (wrong company, user ID or password).",
  "sign-in.deactivated": "A sign-in named a deactivated account.",
  "sign-in.link": "A sign-in link opened a session.",
  "mfa.code-sent": "An MFA code was sent.",
  "mfa.code-wrong": "A wrong MFA code was entered.",
  "mfa.locked-out": "Too many wrong MFA codes: the sign-in ended.",
  "mfa.passed": "The MFA code was right: signed in.",
  "mfa.trusted-browser": "The code a trusted browser keeps passed: signed in without typing a code.",
  "password.test-failed": "The current password, tested again, was wrong.",
  "password.changed": "The password was changed.",
  "password.reset": "The password was set with a reset link (the sandbox's reset page, through the portal).",
  "sign-out": "The person signed out.",
  "session-ended.by-person": "The person ended this session from another device.",
  "session-ended.password-changed": "A password change ended this session.",
  "session-ended.password-reset": "A password reset ended this session.",
  "session-ended.upstream-refused": "The payments API refused the session's token (401).",
  "session-ended.idle": "The session ended after the idle timeout.",
  "session-ended.lifetime": "The session reached its absolute lifetime.",
  "session-ended.limit": "A newer sign-in ended this session: at most 20 are kept a person.",
} as const;

export type SecurityEvent = keyof typeof securityEvents;

/** Events that are a completed sign-in: the "last signed in" note reads them. */
export const signInCompletions: readonly SecurityEvent[] = ["mfa.passed", "mfa.trusted-browser", "sign-in.link"];

const completions: ReadonlySet<SecurityEvent> = new Set(signInCompletions);

/**
 * Failures one may repeat at will (knowing a company and a user ID, a password, or holding a session): counted in the
 * person's activity, never listed one by one, so a flood of them pushes no sign-in, change or ending out of it.
 */
const counted: ReadonlySet<SecurityEvent> = new Set(["sign-in.failed", "password.test-failed", "mfa.code-wrong"]);

/** Steps of a sign-in: logged, and not kept in the activity, where the completed sign-in is the one row (issue 41). */
const stepsOnly: ReadonlySet<SecurityEvent> = new Set(["sign-in.passed", "mfa.code-sent"]);

/** Events that may name a person who does not exist: kept only for a person with activity already. */
const mayNameAnyone: ReadonlySet<SecurityEvent> = new Set(["sign-in.failed", "sign-in.deactivated"]);

/** A session id as logs and pages name it: a digest, which cannot be turned back into the id. */
export const sessionDigest = (sid: string): string => hash("sha256", sid, "base64url").slice(0, 22);

export type SecurityLine = {
  event: SecurityEvent;
  requestId: string;
  person: string;
  session?: string;
  address: string;
  device: string;
  /** An ended session's own device and address, where another request ended it (`device` and `address` acted). */
  sessionDevice?: string;
  sessionAddress?: string;
};

/** Where a session that another request ended was signed in: what its activity row names. */
export type EndedSession = { device: string; address: string };

/**
 * Writes the event's line, and keeps it in the person's recent activity (not awaited: the store never rejects, and
 * the answer does not wait for Redis). `sid` is the session the event is about (not always the request's own); when
 * another request ended it, `ended` says where it was signed in, and its activity row names that, not the actor.
 */
export function securityEvent(
  request: FastifyRequest,
  event: SecurityEvent,
  person: string,
  sid?: string | undefined,
  ended?: EndedSession,
): void {
  const device = deviceLabel(request.headers["user-agent"]);
  const line: SecurityLine = {
    event,
    requestId: request.id,
    // An event that may name anyone names what was typed, which the upstream did not accept: a digest in the log.
    person: mayNameAnyone.has(event) ? nameDigest(person) : person,
    ...(sid ? { session: sessionDigest(sid) } : {}),
    address: clientAddress(request),
    device,
    ...(ended ? { sessionDevice: ended.device, sessionAddress: ended.address } : {}),
  };
  request.log.info(line, "security event");
  const account = request.server.account;
  if (!person || stepsOnly.has(event)) return;
  const address = ended?.address ?? line.address;
  const at = account.now();
  const knownOnly = mayNameAnyone.has(event);
  const record = {
    event,
    at,
    device: ended?.device ?? device,
    address,
    ...(line.session ? { session: line.session } : {}),
  };
  if (counted.has(event)) {
    const failure = { kind: event, at, device, address, source: addressKey(address) };
    void account.activity.failed(person, failure, knownOnly);
  } else if (completions.has(event)) void account.activity.signedIn(person, record);
  else void account.activity.record(person, record, knownOnly);
}

// The session's named writes while it lasts: seen, permissions, a sent code, the password
// test and change, the sign-in page's notice, a form's answer. Nothing else writes it (its beginning and end: lifecycle.ts).
import type { FastifyRequest } from "fastify";
import { type Flash, get, SEEN_GRANULARITY_MS, sessionTimes, set, storeAuth } from "#server/session/fields.ts";
import type { FormAnswer } from "#web/protocol/form-answer.ts";
import type { UserInfo } from "#web/site.ts";

/** How long a passed password test allows the change call. */
export const PASSWORD_TEST_VALID_MS = 5 * 60_000;

/**
 * The person acted now (decided once the route accepted the request: server/session/plugin.ts): the idle time starts
 * again. The record's `seen` is written when it is older than `everyMs`, when the record is written anyway, or when a
 * new span of `everyMs` has begun since it was: a session acting every 45 s crosses a minute at least once a minute.
 */
export function markSeen(request: FastifyRequest, now: number, everyMs = SEEN_GRANULARITY_MS): void {
  const { seen } = sessionTimes(request);
  const span = everyMs > 0 ? Math.floor(now / everyMs) !== Math.floor(seen / everyMs) : true;
  if (!span && now - seen <= everyMs && !request.record?.changed) return;
  set(request, "seen", now);
}

/** `page` is now the previous tracked path (requirements 4.8). */
export function rememberPage(request: FastifyRequest, page: string): void {
  set(request, "previousPage", page);
}

export function cachePermissions(request: FastifyRequest, info: UserInfo, now: number): void {
  set(request, "perms", { info, at: now });
}

export function rememberCodeSent(request: FastifyRequest, now: number): void {
  set(request, "codeSentAt", now);
}

/** requirements 4.4: a changed password ends the expired-password state; the passed test is used up. */
export function passwordChanged(request: FastifyRequest): void {
  set(request, "passwordTested", undefined);
  const auth = request.auth;
  if (auth?.loginMessage !== "Password Expired") return;
  storeAuth(request, { ...auth, loginMessage: "Success" });
}

/** A sign-in whose message the portal did not know, vouched for by the upstream's permissions: a session like any. */
export function untoldSignInVouched(request: FastifyRequest): void {
  const auth = request.auth;
  if (!auth?.untold) return;
  const { untold: _vouched, ...told } = auth;
  storeAuth(request, told);
}

/**
 * A passed test is written at most once a minute, like `seen`: a repeated test within the minute writes nothing. The
 * earlier time counts, which can only shorten the window the change call has.
 */
export function recordPasswordTest(request: FastifyRequest, now: number): void {
  const tested = get(request, "passwordTested");
  if (tested === undefined || now - tested >= SEEN_GRANULARITY_MS) set(request, "passwordTested", now);
}

export function forgetPasswordTest(request: FastifyRequest): void {
  if (get(request, "passwordTested") !== undefined) set(request, "passwordTested", undefined);
}

/** When the current password passed its test call lately, that time (once: the change call spends it). */
export function spendPasswordTest(request: FastifyRequest, now: number): number | undefined {
  const tested = get(request, "passwordTested");
  if (tested === undefined) return undefined;
  set(request, "passwordTested", undefined);
  return now - tested <= PASSWORD_TEST_VALID_MS ? tested : undefined;
}

/** What a request to end other sessions did (its outcome, and how many ended or the seconds to wait), kept once. */
export function noteEndResult(request: FastifyRequest, outcome: string, count?: number): void {
  set(request, "endResult", { outcome, ...(count === undefined ? {} : { count }) });
}

/**
 * The last request to end other sessions' result, read once: a reload or a copied address shows nothing. Like the
 * flash below, it is shown only where it is spent: a request that may not write the session leaves it for the next.
 */
export function takeEndResult(request: FastifyRequest): { outcome: string; count?: number } | undefined {
  const result = get(request, "endResult");
  return result && set(request, "endResult", undefined) ? result : undefined;
}

export function takeFlash(request: FastifyRequest): Flash | undefined {
  const flash = get(request, "flash");
  return flash && set(request, "flash", undefined) ? flash : undefined;
}

/**
 * What a form posted without script came to, kept in the flash beside any notice for the page its 303 leads to
 * (server/routes/sign-in-forms.ts): Back and Reload then never send the form again.
 */
export function keepFormAnswer(request: FastifyRequest, answer: FormAnswer): boolean {
  return set(request, "flash", { ...get(request, "flash"), form: answer });
}

/** A form's answer, read once, by the page it led to: a reload shows it no more. The flash's notice stays. */
export function takeFormAnswer(request: FastifyRequest): FormAnswer | undefined {
  const flash = get(request, "flash");
  if (!flash?.form) return undefined;
  const { form, ...notice } = flash;
  return set(request, "flash", Object.keys(notice).length > 0 ? notice : undefined) ? form : undefined;
}

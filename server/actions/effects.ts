// The effects of /api's forwarded calls: what each upstream answer does to the session, and what the browser gets.
// Held logins, link sign-ins, promotion, the password change, a sent code (the password test's is
// server/actions/password-test.ts's). Each takes the answer, already of the shape openapi/portal.yaml declares
// (server/upstream/answer-reader.ts) or empty, reads only the fields the requirements read, and a token never reaches
// the browser: what the browser gets is the portal's own answer, never the upstream's body.
import { randomUUID } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { components } from "#openapi/schema.ts";
import { loadPermissions } from "#server/account/permissions.ts";
import { nameDigest, personOf } from "#server/account/person.ts";
import { securityEvent } from "#server/account/security-log.ts";
import { endOtherSessions, passwordSet } from "#server/account/sessions.ts";
import type { Call, Effect, OnCall, Shaped } from "#server/actions/rules.ts";
import type { AppContext } from "#server/context.ts";
import { problem } from "#server/plugins/errors.ts";
import { trustDevice } from "#server/security/device-cookie.ts";
import { MAX_TOKEN_CHARACTERS, sendableToken, sessionId } from "#server/session/fields.ts";
import { beginSignIn, expire, promote } from "#server/session/lifecycle.ts";
import { passwordChanged, rememberCodeSent, untoldSignInVouched } from "#server/session/writes.ts";
import { serverTexts } from "#server/texts.ts";
import { ENDED_COUNT_HEADER, ENDING_HEADER } from "#web/api/end-others.ts";
import type { CountedVerdict, HeldLinkLogin, HeldLogin } from "#web/protocol/held.ts";
import { knownLoginMessage, type LoginMessage, type Site } from "#web/site.ts";

type Schemas = components["schemas"];

const asObject = (body: unknown): Record<string, unknown> =>
  body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

/**
 * What the browser gets for a token the portal cannot keep: one too large for the session (refused before any work on
 * it), or one it could not send back (server/session/fields.ts), which makes the answer not usable (requirements 8).
 */
function unkept(request: FastifyRequest, token: string | undefined): Shaped | undefined {
  const { message, code } = serverTexts.sessionTooLarge;
  if (token && token.length > MAX_TOKEN_CHARACTERS) return { status: 502, body: problem(message, code), failed: true };
  if (!token || sendableToken(token)) return undefined;
  request.log.warn({ event: "token-unusable" }, "upstream token not usable");
  return { status: 502, body: {}, failed: true };
}

/**
 * What a sign-in answer says, as requirements 4.1 reads it: the token decides (none is a failed sign-in, whatever the
 * message); with one, `Deactivated` keeps none, and any other message is held (step 3). A message the portal does not
 * know (requirements 9 lists three) is `untold`: it opens no section before the permissions call succeeds. A token or
 * a message of null is none.
 */
export function signInAnswer(body: unknown): { token?: string; message?: LoginMessage; untold: boolean } {
  const { token, message } = asObject(body) as Schemas["LoginResponse"];
  if (typeof token !== "string" || !token) return { untold: false };
  // A message that is not a string tells nothing (a null is none); a sign-in's is refused before this by its shape.
  const told = typeof message === "string" ? message : undefined;
  const known = knownLoginMessage(told);
  return { token, ...(known ? { message: known } : {}), untold: told !== undefined && !known };
}

/** Who a sign-in's form names, as typed: the user ID, the company (clients only), and the person they key. */
function typedSignIn(site: Site, call: Call) {
  const form = asObject(call.input.body);
  const userName = String(form.username ?? "");
  const company = site === "client" ? String(form.shortname ?? "") : "";
  return { userName, company, person: personOf({ site, company, userName }) };
}

/** requirements 4.1: a token is held as pending until MFA passes; a deactivated account keeps none. */
export const holdLogin =
  (site: Site): Effect<"loginClient" | "loginVendor"> =>
  async ({ context, request, call, data }) => {
    const { token, message, untold } = signInAnswer(data);
    const { userName, company, person } = typedSignIn(site, call);
    const held = Boolean(token) && message !== "Deactivated";
    const unusable = unkept(request, token);
    if (unusable) return unusable;
    const outcome = held ? "pending-mfa" : message === "Deactivated" ? "deactivated" : "invalid";
    const loginMessage = untold ? "unknown" : message;
    // The user ID as typed is logged only once the upstream took it (a token held); before, a digest of it.
    // The company as well: a user ID alone names a user of every company that has one.
    const user = held ? { user: userName, ...(company ? { company } : {}) } : { userDigest: nameDigest(userName) };
    signInStep(context, request, { event: "sign-in", site, ...user, outcome, loginMessage }, "sign-in attempt");
    if (held && token) {
      const auth = { stage: "pending", site, userName, company, loginMessage: message ?? "Success", token } as const;
      // Made at /tax-bridge/login (its login call says so): this sign-in, and only it, is in tax-bridge mode.
      beginSignIn(request, { ...auth, ...(untold ? { untold } : {}) }, context.now(), call.input.flags.taxBridge);
      securityEvent(request, "sign-in.passed", person, sessionId(request));
    } else securityEvent(request, message === "Deactivated" ? "sign-in.deactivated" : "sign-in.failed", person);
    // Only a message the portal knows, and only beside a token, reaches the browser: no token reads "Invalid Login".
    return { body: { ...(message ? { message } : {}), tokenHeld: held } satisfies HeldLogin, failed: !held };
  };

/**
 * A sign-in the upstream refused with an error answer (a 401, or another 4xx) rather than an answer with no token: a
 * failed sign-in all the same, for the person's security activity and the log (the throttle counts it already).
 */
export const signInRefused =
  (site: Site) =>
  ({ context, request, call }: OnCall): void => {
    // Refused: the typed user ID is logged as a digest, as any name the upstream did not accept.
    const { userName, person } = typedSignIn(site, call);
    const userDigest = nameDigest(userName);
    signInStep(context, request, { event: "sign-in", site, userDigest, outcome: "refused" }, "sign-in attempt");
    securityEvent(request, "sign-in.failed", person);
  };

/**
 * requirements 4.6: a link's token signs the user in, in the state the upstream gives (an expired password still has to
 * be changed first). An answer without a state is not trusted with a section until the permissions call succeeds.
 */
export const signInByLink =
  (site: Site): Effect<"linkLoginClient" | "linkLoginVendor"> =>
  async ({ context, request, data }) => {
    const { username, shortname } = data ?? {};
    const { token, message } = signInAnswer(data);
    const unusable = unkept(request, token);
    if (unusable) return unusable;
    const usable = Boolean(token) && message !== "Deactivated";
    let opened = false;
    if (token && usable) {
      const owner = linkOwner(site, username, shortname);
      const loginMessage = message ?? "Success";
      beginSignIn(request, { stage: "signed-in", site, ...owner, loginMessage, token }, context.now());
      // One permissions call: it loads the gates, and answers for a link whose state the upstream did not give (no
      // message, or one the portal does not know).
      const info = loginMessage === "Success" ? await loadPermissions(context, request) : undefined;
      if (message === undefined && info === undefined) expire(request, "upstream-refused");
      opened = true;
    }
    // Held only when this link opened a session: a session this browser had before proves nothing about the link.
    const held = opened && request.auth?.stage === "signed-in";
    if (held && request.auth) securityEvent(request, "sign-in.link", personOf(request.auth), sessionId(request));
    const outcome = held ? "signed-in" : "invalid";
    signInStep(context, request, { event: "link-sign-in", site, outcome }, "link sign-in attempt");
    const answer: HeldLinkLogin = { tokenHeld: held, ...(message ? { message } : {}) };
    return { body: answer, failed: !held };
  };

/**
 * Whose account a link opened, as its answer says: the user ID, and for a client the company short name. Where the
 * answer does not say, the session is on its own (server/account/person.ts): never filed under a typed or partial name.
 */
export function linkOwner(
  site: Site,
  username: unknown,
  shortname: unknown,
): { userName: string; company?: string; alone?: string } {
  const userName = typeof username === "string" ? username : "";
  const company = site === "client" && typeof shortname === "string" ? shortname : "";
  if (!userName || (site === "client" && !company)) return { userName, alone: randomUUID() };
  return { userName, ...(company ? { company } : {}) };
}

/**
 * requirements 4.2: only a `Passed` verdict promotes the pending token; wrong codes are counted, and end the sign-in.
 * The verdict reaches the browser as its texts only; an empty answer is no verdict, so no `Passed`.
 */
export const promoteOnPassed: Effect<"validateMfaCode"> = async ({ context, request, call, data }) => {
  const verdict = (data ?? []).map(({ text }) => ({ text }));
  const auth = request.auth;
  if (auth?.stage !== "pending") return { body: verdict };
  const who = { site: auth.site, user: auth.userName, ...(auth.company ? { company: auth.company } : {}) };
  if (verdict[0]?.text === "Passed") {
    promote(request, context.now());
    const info = await loadPermissions(context, request);
    // A sign-in whose message the portal did not know opens a section only on the upstream's word for the token.
    if (auth.untold && !info) {
      signInStep(context, request, { event: "mfa", ...who, outcome: "untold" }, "account state not told");
      if (request.auth) expire(request, "upstream-refused");
      return { body: verdict };
    }
    if (auth.untold) untoldSignInVouched(request);
    signInStep(context, request, { event: "mfa", ...who, outcome: "passed" }, "device verified");
    const how = call.trusted ? "mfa.trusted-browser" : "mfa.passed";
    securityEvent(request, how, personOf(auth), sessionId(request));
    await trustDevice(request, call, personOf(auth), context.now());
    return { body: verdict };
  }
  const sid = sessionId(request) ?? "";
  const { count } = await context.strikes.hit(`mfa|strikes|${sid}`, context.config.session.maxSeconds * 1000);
  signInStep(context, request, { event: "mfa", ...who, outcome: "failed", failures: count }, "code refused");
  securityEvent(request, "mfa.code-wrong", personOf(auth), sid);
  const attemptsLeft = Math.max(0, context.config.mfaMaxWrongCodes - count);
  if (attemptsLeft === 0) {
    // The verdict still answers this code; the next call finds no sign-in, and the sign-in page says why it ended.
    signInStep(context, request, { event: "mfa", ...who, outcome: "limit" }, "too many wrong codes");
    securityEvent(request, "mfa.locked-out", personOf(auth), sid);
    expire(request, "mfa-attempts");
  }
  // The verdict as the upstream gave it (docs/requirements.md reads its first element's text), with the attempts left beside it.
  const [first, ...rest] = verdict;
  const counted: CountedVerdict[] = [{ ...(first ?? { text: "Failed" }), attemptsLeft }, ...rest];
  return { body: counted, failed: true };
};

/** requirements 4.2: an OK answer is a sent code, whatever its body (it is not read; none is fine). */
export const codeSent: Effect<"generateMfaCode"> = async ({ context, request }) => {
  rememberCodeSent(request, context.now());
  if (request.auth) securityEvent(request, "mfa.code-sent", personOf(request.auth), sessionId(request));
  return { body: {} };
};

/**
 * A changed password ends the person's other sessions when the form asks (its box is checked by default), and always
 * when it was the forced change of an expired password at sign-in; the answer says how many ended.
 */
export const changedPassword: Effect<"changePassword"> = async ({ request, call }) => {
  const auth = request.auth;
  const forced = auth?.loginMessage === "Password Expired";
  passwordChanged(request);
  const sid = sessionId(request);
  if (!auth || !sid) return { body: {} };
  securityEvent(request, "password.changed", personOf(auth), sid);
  await passwordSet(request, auth);
  if (!forced && !call.input.flags.endOthers) return { body: {} };
  const ended = await endOtherSessions(request, auth, sid, "all", "password-changed");
  const headers: Record<string, string> = { [ENDED_COUNT_HEADER]: String(ended?.count ?? 0) };
  if (ended?.onItsWay) headers[ENDING_HEADER] = "1"; // the island says the ending is still on its way
  return { body: {}, headers };
};

/** A step of signing in: logged, and counted for the metrics by event and outcome. */
export function signInStep(
  context: AppContext,
  request: FastifyRequest,
  fields: { event: string; outcome: string } & Record<string, unknown>,
  message: string,
): void {
  request.log.info(fields, message);
  context.metrics.signIns.inc({ event: fields.event, outcome: fields.outcome });
}

// What an upstream answer does to the session: held logins, link sign-ins, promotion, the password test and change,
// a sent code. Each takes the parsed answer and gives what the browser gets (a token never reaches it).
import type { FastifyRequest } from "fastify";
import type { components } from "#openapi/schema.d.ts";
import type { AppContext } from "#server/context.ts";
import { loadPermissions } from "#server/permissions.ts";
import {
  beginSignIn,
  expire,
  MAX_TOKEN_CHARACTERS,
  passwordChanged,
  promote,
  recordPasswordTest,
  rememberCodeSent,
  sessionId,
} from "#server/session/data.ts";
import { encodeSealed } from "#server/session/plugin.ts";
import { serverTexts } from "#server/texts.ts";
import { ATTEMPTS_LEFT_HEADER, type HeldLinkLogin, type HeldLogin } from "#web/api/held.ts";
import type { Site } from "#web/site.ts";

type Schemas = components["schemas"];

/** The browser's answer: its status (the upstream's when not given), its body, and whether the attempt failed. */
export type Shaped = { status?: number; body: unknown; failed?: boolean; headers?: Record<string, string> };
export type Effect = (input: { context: AppContext; request: FastifyRequest; body: unknown }) => Promise<Shaped>;

const asObject = (body: unknown): Record<string, unknown> =>
  body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
const tokenOf = (body: unknown) => {
  const token = asObject(body).token;
  return typeof token === "string" && token ? token : undefined;
};
const tooLarge: Shaped = {
  status: 502,
  body: { detail: serverTexts.sessionTooLarge.message, code: serverTexts.sessionTooLarge.code },
  failed: true,
};

/** What a browser keeps of one cookie (RFC 6265 6.1), less room for the cookie's name and attributes. */
const MAX_SEALED_SESSION = 4096 - 160;

/** A session the browser could not keep ends at once, and the person is told (never a cookie silently dropped). */
function fitsCookie(request: FastifyRequest): boolean {
  const sealed = encodeSealed(request.server.encodeSecureSession(request.session));
  if (sealed.length <= MAX_SEALED_SESSION) return true;
  request.log.error({ event: "session-too-large", bytes: sealed.length }, "session not stored");
  expire(request, "signed-out");
  return false;
}

/** SPEC.md 4.1: a token is held as pending until MFA passes; a deactivated account keeps none. */
export const holdLogin =
  (site: Site): Effect =>
  async ({ context, request, body }) => {
    const { message } = asObject(body) as Schemas["LoginResponse"];
    const token = tokenOf(body);
    const form = asObject(request.body);
    const userName = String(form.username ?? "");
    const held = Boolean(token) && message !== "Deactivated";
    if (token && token.length > MAX_TOKEN_CHARACTERS) return tooLarge; // refused before any work on it
    const outcome = held ? "pending-mfa" : message === "Deactivated" ? "deactivated" : "invalid";
    const fields = { event: "sign-in", site, user: userName, outcome, loginMessage: message };
    signInStep(context, request, fields, "sign-in attempt");
    if (held && token) {
      const company = site === "client" ? String(form.shortname ?? "") : "";
      const loginMessage = message ?? "Success";
      beginSignIn(request, { stage: "pending", site, userName, company, loginMessage, token }, context.now());
      if (!fitsCookie(request)) return tooLarge;
    }
    return { body: { ...(message ? { message } : {}), tokenHeld: held } satisfies HeldLogin, failed: !held };
  };

/**
 * SPEC.md 4.6: a link's token signs the user in, in the state the upstream gives (an expired password still has to
 * be changed first). An answer without a state is not trusted with a section until the permissions call succeeds.
 */
export const signInByLink =
  (site: Site): Effect =>
  async ({ context, request, body }) => {
    const { message, username } = asObject(body) as Schemas["LinkLoginResponse"];
    const token = tokenOf(body);
    if (token && token.length > MAX_TOKEN_CHARACTERS) return tooLarge;
    const usable = Boolean(token) && message !== "Deactivated";
    if (token && usable) {
      const userName = typeof username === "string" ? username : "";
      const loginMessage = message ?? "Success";
      beginSignIn(request, { stage: "signed-in", site, userName, company: "", loginMessage, token }, context.now());
      if (!fitsCookie(request)) return tooLarge;
      // One permissions call: it loads the gates, and answers for a link whose state the upstream did not give.
      const info = loginMessage === "Success" ? await loadPermissions(context, request) : undefined;
      if (message === undefined && info === undefined) expire(request, "upstream-refused");
    }
    const held = request.auth?.stage === "signed-in";
    const outcome = held ? "signed-in" : "invalid";
    signInStep(context, request, { event: "link-sign-in", site, outcome }, "link sign-in attempt");
    const answer: HeldLinkLogin = { tokenHeld: held, ...(message ? { message } : {}) };
    return { body: answer, failed: !held };
  };

/** SPEC.md 4.2: only a `Passed` verdict promotes the pending token; wrong codes are counted, and end the sign-in. */
export const promoteOnPassed: Effect = async ({ context, request, body }) => {
  const verdict = Array.isArray(body) ? (body as Schemas["MfaVerdict"]) : [];
  const auth = request.auth;
  if (auth?.stage !== "pending") return { body: verdict };
  const who = { site: auth.site, user: auth.userName };
  if (verdict[0]?.text === "Passed") {
    promote(request, context.now());
    await loadPermissions(context, request);
    signInStep(context, request, { event: "mfa", ...who, outcome: "passed" }, "device verified");
    return { body: verdict };
  }
  const sid = sessionId(request) ?? "";
  const { count } = await context.strikes.hit(`mfa|${sid}`, context.config.session.maxSeconds * 1000);
  signInStep(context, request, { event: "mfa", ...who, outcome: "failed", failures: count }, "code refused");
  const attemptsLeft = Math.max(0, context.config.mfaMaxWrongCodes - count);
  if (attemptsLeft === 0) {
    // The verdict still answers this code; the next call finds no sign-in, and the sign-in page says why it ended.
    signInStep(context, request, { event: "mfa", ...who, outcome: "limit" }, "too many wrong codes");
    expire(request, "mfa-attempts");
  }
  // The verdict as the upstream gave it (SPEC.md reads its first element); the attempts left travel in a header.
  return { body: verdict, failed: true, headers: { [ATTEMPTS_LEFT_HEADER]: String(attemptsLeft) } };
};

export const codeSent: Effect = async ({ context, request, body }) => {
  rememberCodeSent(request, context.now());
  return { body: body ?? {} };
};

export const passwordTested: Effect = async ({ context, request, body }) => {
  recordPasswordTest(request, context.now());
  return { body: body ?? {} };
};

export const changedPassword: Effect = async ({ request, body }) => {
  passwordChanged(request);
  return { body: body ?? {} };
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

// Checks some operations need beyond their schema, made before the upstream is called. A check either lets the call
// go (undefined) or answers in its place.
import type { FastifyRequest } from "fastify";
import type { AppContext } from "#server/context.ts";
import { lastCodeSentAt, sessionId, spendPasswordTest } from "#server/session/data.ts";
import { serverTexts } from "#server/texts.ts";
import { COOLDOWN_HEADER } from "#web/api/held.ts";
import { strongPassword } from "#web/password-rules.ts";

export type Answer = { status: number; body: unknown; headers?: Record<string, string> };
export type Check = (input: { context: AppContext; request: FastifyRequest }) => Promise<Answer | undefined>;

declare module "fastify" {
  interface FastifyRequest {
    /** Work to do once this request's answer has gone (a lock to release). */
    afterAnswer: (() => Promise<void>) | undefined;
  }
}

/** SPEC.md 9's "Send Again" cooldown: a code sent for this sign-in moments ago is not sent again on a reload. */
export const SEND_AGAIN_COOLDOWN_MS = 20_000;
/** An MFA validation holds its session's lock at most this long (the upstream's deadline bounds it sooner). */
const VALIDATE_LOCK_MS = 30_000;

export const skipRecentGenerate: Check = async ({ context, request }) => {
  const sentAt = lastCodeSentAt(request);
  const left = sentAt === undefined ? 0 : SEND_AGAIN_COOLDOWN_MS - (context.now() - sentAt);
  if (left <= 0) return undefined;
  return { status: 200, body: {}, headers: { [COOLDOWN_HEADER]: String(Math.ceil(left / 1000)) } };
};

/** One code checked at a time per pending sign-in, so parallel guesses cannot get past the wrong-code limit. */
export const oneValidateAtATime: Check = async ({ context, request }) => {
  const key = `mfa-validate|${sessionId(request) ?? ""}`;
  if (!(await context.locks.acquire(key, VALIDATE_LOCK_MS))) {
    const { code, message } = serverTexts.mfaInFlight;
    return { status: 409, body: { detail: message, code } };
  }
  request.afterAnswer = () => context.locks.release(key);
  return undefined;
};

/** SPEC.md 5's rules on the new password, and a current password that passed its test call just before. */
export const checkNewPassword: Check = async ({ context, request }) => {
  const result = strongPassword.safeParse((request.body as { password?: unknown }).password);
  if (!result.success) return { status: 400, body: { description: result.error.issues[0]?.message } };
  if (!spendPasswordTest(request, context.now())) {
    const { code, message } = serverTexts.passwordNotTested;
    return { status: 400, body: { detail: message, code } };
  }
  return undefined;
};

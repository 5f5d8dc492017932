// Checks some operations need beyond their schema, made before the upstream is called. A check either lets the call
// go (undefined) or answers in its place.
import * as z from "zod/mini";
import { guessedAs } from "#server/actions/common-passwords.ts";
import type { Answer, OnCall } from "#server/actions/rules.ts";
import { problem } from "#server/plugins/errors.ts";
import { lastCodeSentAt, sessionId } from "#server/session/fields.ts";
import { PASSWORD_TEST_VALID_MS, spendPasswordTest } from "#server/session/writes.ts";
import { serverTexts } from "#server/texts.ts";
import { isolate } from "#web/components/isolated.tsx";
import { passwordProblem } from "#web/password-rules.ts";
import { COOLDOWN_HEADER, SEND_AGAIN_COOLDOWN_MS } from "#web/protocol/headers.ts";
import { linkLoginTexts } from "#web/texts/link-login.ts";

export type ReplyInstead = Answer & {
  /** The throttled attempt counts though the call never left (the check itself is the cost, or the probe). */
  counts?: true;
};
export type Check = (input: OnCall) => Promise<ReplyInstead | undefined>;

/** Checks made one after the other: the first that answers answers in the upstream's place, and the rest are not made. */
export const inOrder =
  (...checks: Check[]): Check =>
  async (input) => {
    for (const check of checks) {
      const answer = await check(input);
      if (answer) return answer;
    }
    return undefined;
  };

/** A new password as the server reads it: a string, then requirements 5's rules, the first problem as its message. */
const newPassword = z.string().check(
  z.superRefine((password, context) => {
    const problem = passwordProblem(password);
    if (problem !== undefined) context.issues.push({ code: "custom", message: problem, input: password });
  }),
);

/** An MFA validation holds its session's lock at most this long (the upstream's deadline bounds it sooner). */
const VALIDATE_LOCK_MS = 30_000;

export const skipRecentGenerate: Check = async ({ context, request }) => {
  const sentAt = lastCodeSentAt(request);
  const left = sentAt === undefined ? 0 : SEND_AGAIN_COOLDOWN_MS - (context.now() - sentAt);
  if (left <= 0) return undefined;
  return { status: 200, body: {}, headers: { [COOLDOWN_HEADER]: String(Math.ceil(left / 1000)) } };
};

/** One code checked at a time per pending sign-in, so parallel guesses cannot get past the wrong-code limit. */
export const oneValidateAtATime: Check = async ({ context, request, call }) => {
  const key = `mfa-validate|${sessionId(request) ?? ""}`;
  if (!(await context.locks.acquire(key, VALIDATE_LOCK_MS))) {
    const { code, message } = serverTexts.mfaInFlight;
    return { status: 409, body: problem(message, code) };
  }
  call.release = () => context.locks.release(key);
  return undefined;
};

/**
 * requirements 5's rules on the new password, a current password that passed its test call just before, and none of
 * the common or easily guessed passwords (ASVS 5.0 V6.2.4, `common-passwords.ts`), in that order: the list is asked
 * only for a session that has just spent a passed test, so a guess at the list costs a tested password. A refused new
 * password spends the test too: the form tests the current password again before each change.
 */
export const checkNewPassword: Check = async ({ context, request, call }) => {
  const result = newPassword.safeParse(call.input.body?.password);
  if (!result.success) return { status: 400, body: { description: result.error.issues[0]?.message }, counts: true };
  const tested = spendPasswordTest(request, context.now());
  const sid = sessionId(request);
  // A copy of the cookie still carries the test: the shared store lets each passed test be spent once, anywhere.
  const once =
    tested !== undefined &&
    sid !== undefined &&
    (await context.locks.acquire(`password-test|${sid}|${tested}`, PASSWORD_TEST_VALID_MS));
  if (!once) {
    const { code, message } = serverTexts.passwordNotTested;
    return { status: 400, body: problem(message, code), counts: true };
  }
  const auth = request.auth;
  const guessed = guessedAs(result.data, [auth?.userName ?? "", auth?.company ?? ""]);
  if (guessed) {
    const { code, message } = guessed === "personal" ? serverTexts.personalPassword : serverTexts.commonPassword;
    return { status: 400, body: { description: message, code }, counts: true };
  }
  return undefined;
};

/**
 * A sign-in link never replaces this browser's session unless the person clicked to (the link page sends
 * the flag only then). A page opened from another site carries no cookie, so only this call can tell.
 */
export const confirmReplace: Check = async ({ request, call }) => {
  const auth = request.auth;
  if (!auth || call.input.flags.replaceSession) return undefined;
  // The names are isolated (web/components/isolated.tsx): the link's page shows this sentence.
  const who = linkLoginTexts.whoIs({
    name: isolate(auth.userName),
    site: auth.site,
    company: isolate(auth.company ?? ""),
  });
  return { status: 409, body: problem(linkLoginTexts.signedInAs(who), serverTexts.sessionExists.code) };
};

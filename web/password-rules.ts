// The password rules of requirements 5, in one zod schema used by the change-password island and the BFF.
// zod/mini: the same schemas as zod, tree-shakable, so the browser ships only what these rules use.
import * as z from "zod/mini";
import { passwordTexts } from "#web/texts/password.ts";

export const PASSWORD_MIN_LENGTH = 12;
export const SPECIAL_CHARACTERS = "!@#$%^&*()/<>?|_+-=,.";

/** Each complexity requirement, in the order the form lists them. */
export const requirements = [
  { id: "length", label: passwordTexts.requirements.length, met: (p: string) => p.length >= PASSWORD_MIN_LENGTH },
  { id: "lower", label: passwordTexts.requirements.lower, met: (p: string) => /[a-z]/.test(p) },
  { id: "upper", label: passwordTexts.requirements.upper, met: (p: string) => /[A-Z]/.test(p) },
  { id: "digit", label: passwordTexts.requirements.digit, met: (p: string) => /[0-9]/.test(p) },
  {
    id: "special",
    label: passwordTexts.requirements.special,
    met: (p: string) => [...p].some((c) => SPECIAL_CHARACTERS.includes(c)),
  },
] as const;

const complex = (p: string) => requirements.every((rule) => rule.met(p));

/** A new password on its own: what the server checks before forwarding a change. */
export const strongPassword = z
  .string()
  .check(
    z.minLength(PASSWORD_MIN_LENGTH, { error: passwordTexts.tooShort, abort: true }),
    z.refine(complex, { error: passwordTexts.weak }),
  );

/** The form: length, then confirmation, then complexity (requirements 5 order); the first failure wins. */
export const newPasswordForm = z.object({ newPassword: z.string(), confirmPassword: z.string() }).check(
  z.refine((form) => form.newPassword.length >= PASSWORD_MIN_LENGTH, { error: passwordTexts.tooShort, abort: true }),
  z.refine((form) => form.newPassword === form.confirmPassword, { error: passwordTexts.mismatch, abort: true }),
  z.refine((form) => complex(form.newPassword), { error: passwordTexts.weak, abort: true }),
);

/** The first problem with a new password and its confirmation, or undefined when it may be sent. */
export function newPasswordProblem(newPassword: string, confirmPassword: string): string | undefined {
  const result = newPasswordForm.safeParse({ newPassword, confirmPassword });
  return result.success ? undefined : result.error.issues[0]?.message;
}

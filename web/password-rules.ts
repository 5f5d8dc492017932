// The password rules of requirements 5, written once for the change-password island, the BFF and the sandbox. Plain
// predicates, no zod: the browser ships only these lines (the server parses its input with zod, then asks them).
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

/** A new password's first problem on its own (length, then complexity), or undefined: what the server checks. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return passwordTexts.tooShort;
  return complex(password) ? undefined : passwordTexts.weak;
}

/** The first problem with a new password and its confirmation (length, confirmation, complexity), or undefined. */
export function newPasswordProblem(newPassword: string, confirmPassword: string): string | undefined {
  if (newPassword.length < PASSWORD_MIN_LENGTH) return passwordTexts.tooShort;
  if (newPassword !== confirmPassword) return passwordTexts.mismatch;
  return passwordProblem(newPassword);
}

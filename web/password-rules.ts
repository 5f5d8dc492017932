// The password rules of requirements 5, written once for the change-password island, the BFF and the sandbox. Plain
// patterns, no zod: the browser ships only these lines (the server parses its input with zod, then asks them).
import { passwordTexts } from "#web/texts/password.ts";

export const PASSWORD_MIN_LENGTH = 12;
export const SPECIAL_CHARACTERS = "!@#$%^&*()/<>?|_+-=,.";

/** The characters as a character class's members, each standing for itself. */
const classOf = (characters: string) => `[${characters.replace(/[\\\]^-]/g, "\\$&")}]`;

/**
 * A requirement as one pattern: `met` for the island and the server, and its source (no flags) for a page that
 * checks it in a script of its own (the sandbox's reset page), so both tick the same boxes. Lengths in UTF-16 units.
 */
const requirement = <Id extends string>(id: Id, label: string, pattern: RegExp) => ({
  id,
  label,
  pattern: pattern.source,
  met: (p: string) => pattern.test(p),
});

/** Each complexity requirement, in the order the form lists them. */
export const requirements = [
  requirement("length", passwordTexts.requirements.length, new RegExp(`^[\\s\\S]{${PASSWORD_MIN_LENGTH},}`)),
  requirement("lower", passwordTexts.requirements.lower, /[a-z]/),
  requirement("upper", passwordTexts.requirements.upper, /[A-Z]/),
  requirement("digit", passwordTexts.requirements.digit, /[0-9]/),
  requirement("special", passwordTexts.requirements.special, new RegExp(classOf(SPECIAL_CHARACTERS))),
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

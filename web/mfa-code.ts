// A multi-factor code as it is sent (requirements 5), shared by the MFA step and the server's form route.
import { mfaTexts } from "#web/texts/mfa.ts";

/** requirements 5: a code is at most this long (the field's bound, and one underscore per character of its placeholder). */
export const MFA_CODE_MAX_LENGTH = 8;

/**
 * A typed code as it is sent: digits only, a code typed or pasted in groups ("850 894", "850-894") without what
 * separates them; or why it is not sent (it could only fail, and use up an attempt).
 */
export function mfaCodeOf(typed: string): { code: string } | { problem: string } {
  const code = typed.replace(/[\s-]/g, "");
  if (!code) return { problem: mfaTexts.codeRequired };
  if (!/^\d+$/.test(code)) return { problem: mfaTexts.digitsOnly };
  return code.length <= MFA_CODE_MAX_LENGTH ? { code } : { problem: mfaTexts.tooLong(MFA_CODE_MAX_LENGTH) };
}

// A multi-factor code as it is sent (requirements 5), shared by the MFA step and the server's form route.
import { mfaTexts } from "#web/texts/mfa.ts";

/**
 * A typed code as it is sent: digits only, a code typed or pasted in groups ("850 894", "850-894") without what
 * separates them; or why it is not sent (it could only fail, and use up an attempt).
 */
export function mfaCodeOf(typed: string): { code: string } | { problem: string } {
  const code = typed.replace(/[\s-]/g, "");
  if (!code) return { problem: mfaTexts.codeRequired };
  return /^\d+$/.test(code) ? { code } : { problem: mfaTexts.digitsOnly };
}

// The sign-in path's own checks before anything is sent (requirements 5), shared by the islands and the server's form
// routes, so a form posted before its script arrives is checked in the same order, with the same words.
import type { Site } from "#web/site.ts";
import { loginTexts } from "#web/texts/login-screen.ts";
import { mfaTexts } from "#web/texts/mfa.ts";
import { resetTexts } from "#web/texts/reset.ts";

export type LoginField = "shortName" | "userName" | "password";
export type ResetField = "clientShortName" | "emailAddress";
/** The first failed check: its words, and the field it names when it names one. */
export type Problem<F extends string> = { message: string; field?: F };

/** requirements 5: client checks Company Short Name, User ID, Password in that order; vendor the last two. */
export function loginProblem(
  site: Site,
  values: { shortName: string; userName: string; password: string },
): Problem<LoginField> | undefined {
  if (site === "client" && !values.shortName.trim()) return { message: loginTexts.companyRequired, field: "shortName" };
  if (!values.userName.trim()) return { message: loginTexts.userIdRequired, field: "userName" };
  if (!values.password) return { message: loginTexts.passwordRequired, field: "password" };
  return undefined;
}

/** requirements 5: only a required check applies to the reset (no format check on the e-mail). */
export function resetProblem(site: Site, shortName: string, email: string): Problem<ResetField> | undefined {
  if (site === "client" && !shortName.trim()) return { message: resetTexts.companyRequired, field: "clientShortName" };
  if (!email.trim()) return { message: resetTexts.emailRequired, field: "emailAddress" };
  return undefined;
}

/**
 * A typed code as it is sent: digits only, a code typed or pasted in groups ("850 894", "850-894") without what
 * separates them; or why it is not sent (it could only fail, and use up an attempt).
 */
export function mfaCodeOf(typed: string): { code: string } | { problem: string } {
  const code = typed.replace(/[\s-]/g, "");
  if (!code) return { problem: mfaTexts.codeRequired };
  return /^\d+$/.test(code) ? { code } : { problem: mfaTexts.digitsOnly };
}

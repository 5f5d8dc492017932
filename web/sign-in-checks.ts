// The login form's own checks before anything is sent (requirements 5), shared by the island and the server's form
// route, so a form posted before its script arrives is checked in the same order, with the same words.
import type { Site } from "#web/site.ts";
import { loginTexts } from "#web/texts/login-screen.ts";

export type LoginField = "shortName" | "userName" | "password";
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

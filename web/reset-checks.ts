// The reset panel's one check before anything is sent (requirements 5), shared by the panel and the server's form route.
import type { Problem } from "#web/sign-in-checks.ts";
import type { Site } from "#web/site.ts";
import { resetTexts } from "#web/texts/reset.ts";

export type ResetField = "clientShortName" | "emailAddress";

/** requirements 5: only a required check applies to the reset (no format check on the e-mail). */
export function resetProblem(site: Site, shortName: string, email: string): Problem<ResetField> | undefined {
  if (site === "client" && !shortName.trim()) return { message: resetTexts.companyRequired, field: "clientShortName" };
  if (!email.trim()) return { message: resetTexts.emailRequired, field: "emailAddress" };
  return undefined;
}

// requirements 2.8–2.12 and 6: a section page needs a session of the section's audience, its permissions known, and the
// row's gate passed; otherwise the sign-in page, the MFA step, or the forbidden, checking or not-found screen.

import type { FastifyRequest } from "fastify";
import { permissionsFor } from "#server/account/permissions.ts";
import { loadFor } from "#server/loaders/loaders.tsx";
import { type Loaded, type PageRequest, pageContextOf, redirect, type Screens } from "#server/loaders/screen.ts";
import { isNavigation } from "#server/loaders/visits.ts";
import { cachedPermissions, signedIn, standing } from "#server/session/fields.ts";
import { BY_ITSELF } from "#server/session/plugin.ts";
import { answerMessage } from "#web/api/answer.ts";
import type { FormAnswer } from "#web/protocol/form-answer.ts";
import { opens } from "#web/routes/opens.ts";
import type { SignedInSection } from "#web/routes/row.ts";
import { type RouteMatch, sectionAudience } from "#web/routes/table.ts";
import { SectionPage, type SectionScreen } from "#web/screens/section-page.tsx";
import { signInUrl, type UserInfo } from "#web/site.ts";
import { sectionTexts } from "#web/texts/sections.ts";

/** How long the checking page waits before it asks again, when permissions could not be had. */
export const CHECKING_RETRY_SECONDS = 5;
/** How many times the checking page asks again by itself before it says the check failed. */
export const CHECKING_RETRIES = 3;
/** The query parameter that counts the checking page's own retries. */
export const CHECKS = "checks";

/** The retries the checking page has made for this address: a count it wrote itself, bounded. */
function checksOf(request: PageRequest): number {
  const checks = Number(request.query[CHECKS]);
  return Number.isInteger(checks) && checks > 0 ? Math.min(checks, CHECKING_RETRIES) : 0;
}

/** The address with its retry count (none for 0), and without the browser's own-load marker. */
export function withChecks(url: string, checks: number): string {
  const at = url.indexOf("?");
  const path = at === -1 ? url : url.slice(0, at);
  const query = new URLSearchParams(at === -1 ? "" : url.slice(at + 1));
  query.delete(BY_ITSELF);
  query.delete(CHECKS);
  if (checks > 0) query.set(CHECKS, String(checks));
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/**
 * Why this session may not have a page of `section`, before its gate: signed out, its sign-in not done, or another
 * audience's section; undefined when it may. One rule for a page's GET and for the form it takes.
 */
export function turnedAway(request: FastifyRequest, section: SignedInSection) {
  if (!request.auth) return "signed-out";
  if (standing(request) !== "signed-in") return "not-signed-in";
  return request.auth.site === sectionAudience[section] ? undefined : "other-audience";
}

/** A section's page; `answer`: what its form (the change-password form's), sent back without script, came to. */
export async function loadSection(
  screens: Screens,
  section: SignedInSection,
  match: RouteMatch | undefined,
  request: PageRequest,
  answer?: FormAnswer,
): Promise<Loaded> {
  const away = turnedAway(request, section);
  // Signed out: the sign-in page, which brings the person back here once signed in (if their gate lets them).
  if (away === "signed-out") return redirect(signInUrl(isNavigation(request) ? request.url : undefined));
  // Waiting for its code, or allowed only its password change: the MFA step holds either.
  if (away === "not-signed-in") return redirect("/mfa");
  const audience = sectionAudience[section];
  const show = (status: number, title: string, screen: SectionScreen, permissions?: UserInfo): Loaded => ({
    status,
    title: sectionTexts.pageTitle(title, section),
    body: (
      <SectionPage
        context={pageContextOf(screens, request)}
        section={section}
        audience={audience}
        permissions={permissions}
        screen={screen}
        formNotes={answer && "notes" in answer ? answer.notes : undefined}
      />
    ),
  });
  // Another audience's section: the forbidden page, without a navigation that is not this user's.
  if (away) return show(403, sectionTexts.forbiddenTitle, { kind: "forbidden" });

  // requirements 2.8 and 6: a page without a gate shows without waiting for the permissions (the navigation is drawn
  // from those the session holds, of any age, or left out); a gated page waits for them: the cache answers, or one
  // upstream call for this page.
  const gated = match !== undefined && (match.entry.gate !== undefined || match.entry.screen === "forbidden");
  let failure = { status: 502, body: undefined as unknown }; // what the permissions call answered, when it failed
  const permissions = gated
    ? await permissionsFor(screens.context, request, (status, body) => {
        failure = { status, body };
      })
    : cachedPermissions(request)?.info;
  if (!signedIn(request)) return redirect("/"); // the upstream refused the token: session expired
  if (gated && !permissions) {
    // 4.7's waiting state, asking again by itself a few times; then section 8's failed call, and a way to try again.
    const checks = checksOf(request);
    if (checks < CHECKING_RETRIES)
      return {
        ...show(503, sectionTexts.checkingTitle, { kind: "checking" }),
        retryAfter: CHECKING_RETRY_SECONDS,
        retryPath: withChecks(request.url, checks + 1),
      };
    // Section 8's message for what the last call answered, as an island's call would say it.
    const said = answerMessage(failure.status, failure.body);
    const outage = failure.status >= 500;
    return show(503, said, { kind: "unchecked", said, outage, again: withChecks(request.url, 0) });
  }
  if (!match) return show(404, sectionTexts.notFoundTitle, { kind: "not-found" }, permissions);
  const { entry } = match;
  if (gated && !(permissions && opens(entry, permissions)))
    return show(403, sectionTexts.forbiddenTitle, { kind: "forbidden" }, permissions);
  // What the row's loader draws (the account sections, the last sign-in), once its gate passed.
  const loaded = await loadFor({ context: screens.context, request, entry, section, params: match.params });
  return show(200, entry.title, { kind: "entry", entry, ...(loaded ? { loaded } : {}) }, permissions);
}

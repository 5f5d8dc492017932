// The public screens of the route table (requirements 2.1): the sign-in pages, the MFA step, login by link and the
// screens that only say what they are for.

import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { loadLogin } from "#server/loaders/login.tsx";
import {
  type Loaded,
  type PageRequest,
  pageContextOf,
  redirect,
  type Screens,
  taxBridgeOn,
} from "#server/loaders/screen.ts";
import { CrossSiteRefusal } from "#server/plugins/csrf.ts";
import { Refusal } from "#server/plugins/errors.ts";
import { safePath } from "#server/security/safe-path.ts";
import { standing } from "#server/session/fields.ts";
import { expire } from "#server/session/lifecycle.ts";
import { personOpened } from "#server/session/plugin.ts";
import { serverTexts } from "#server/texts.ts";
import { CHANGED_PAUSE_MS } from "#web/components/change-password-form.tsx";
import type { FormAnswer } from "#web/protocol/form-answer.ts";
import type { RouteEntry } from "#web/routes/row.ts";
import { AboutPage } from "#web/screens/about-page.tsx";
import { IslandPage } from "#web/screens/island-page.tsx";
import { landingPath, landingUrl, linkSite } from "#web/site.ts";
import { accessTexts } from "#web/texts/access.ts";
import { errorTexts } from "#web/texts/errors.ts";
import { passwordTexts } from "#web/texts/password.ts";

/** A public screen's page; `answer`: what its form, sent back without script, came to. */
export function loadPublic(screens: Screens, entry: RouteEntry, request: PageRequest, answer?: FormAnswer): Loaded {
  switch (entry.screen) {
    case "tax-bridge-login":
      // docs/requirements.md: the sign-in made on this page is in tax-bridge mode (its login call says so); a visit
      // alone writes nothing, from this site or another.
      return loadLogin(screens, entry, request, answer);
    case "login":
      return loadLogin(screens, entry, request, answer);
    case "mfa":
      return loadMfa(screens, entry, request, answer);
    case "link-login":
      return loadLinkLogin(screens, entry, request, answer);
    default:
      return { title: entry.title, body: <AboutPage context={pageContextOf(screens, request)} entry={entry} /> };
  }
}

/** requirements 2.4: the MFA step of a pending sign-in, or the change-password form of an expired password. */
function loadMfa(screens: Screens, entry: RouteEntry, request: PageRequest, answer?: FormAnswer): Loaded {
  const auth = request.auth;
  const state = standing(request);
  if (auth && state === "pending") {
    const context = pageContextOf(screens, request);
    // The page first asked for rides along from the sign-in page (`?return=`), checked again on landing.
    const returnTo = request.query.return ? safePath(request.query.return) || undefined : undefined;
    const props = {
      site: auth.site,
      company: auth.company ?? "",
      userName: auth.userName,
      loginMessage: auth.loginMessage,
      landing: landingUrl(returnTo),
      ...(answer?.form === "mfa" ? { note: answer.note } : {}),
      ...(personOpened(request) ? {} : { quiet: true as const }),
    };
    return { title: entry.title, body: <IslandPage context={context} title={entry.title} name="mfa" props={props} /> };
  }
  // The forced change just made by a form posted without script: its success is said here, on the step's own page.
  const changed = answer?.form === "change-password" && state === "signed-in";
  if (auth && (state === "password-change" || changed)) {
    // The one page an expired password's session has: the sign-in's own step, as the login page shows it after the
    // code (a reload is not a signed-in page with Sign out; "Use another account" ends the sign-in).
    // Its idle clock runs: the warning lets a person typing a new password keep the session.
    const context = { ...pageContextOf(screens, request), idleWarning: true };
    const notes = answer?.form === "change-password" ? { notes: answer.notes } : {};
    const props = { expired: { site: auth.site, userName: auth.userName, ...notes } };
    return {
      title: passwordTexts.heading,
      body: <IslandPage context={context} title={passwordTexts.heading} name="change-password" props={props} />,
      ownForm: true,
      // The forced change moves on to the home page after the pause the island keeps, as the page says.
      ...(changed ? { moveOn: { seconds: CHANGED_PAUSE_MS / 1000, to: `/${auth.site}/home` } } : {}),
    };
  }
  if (auth) return redirect(landingPath(auth.site, taxBridgeOn(screens.context, request)));
  // A GET another site started leaves the session as it is (server/session/lifecycle.ts): it would sign a victim out.
  expire(request, "not-signed-in");
  return redirect("/");
}

/**
 * requirements 2.6: a link never replaces a session silently, the island names it and waits for a click. `answer`:
 * why the link's plain form, sent without script, did not sign in (server/routes/sign-in-forms.ts).
 */
function loadLinkLogin(screens: Screens, entry: RouteEntry, request: PageRequest, answer?: FormAnswer): Loaded {
  const auth = request.auth;
  const current = auth && { name: auth.userName, site: auth.site, ...(auth.company ? { company: auth.company } : {}) };
  const failure = answer?.form === "link-login" ? answer.note.text : undefined;
  // Opened by another site's page with no click of the person's (Fetch Metadata: a script's redirect, a page that
  // opened itself): the link waits for a click, or any site could sign a browser into the account of its choosing.
  const unasked =
    ["cross-site", "same-site"].includes(String(request.headers["sec-fetch-site"])) &&
    request.headers["sec-fetch-user"] !== "?1";
  const props = {
    uuid: request.query.uuid ?? null,
    site: linkSite(request.query.type ?? null),
    ...(failure ? { failure } : current ? { current } : {}),
    ...(unasked && !failure ? { unasked: true as const } : {}),
  };
  return {
    title: entry.title,
    body: <IslandPage context={pageContextOf(screens, request)} title={entry.title} name="link-login" props={props} />,
  };
}

/**
 * The session scope's error handler, for the refusals a person meets as a page rather than as an /api caller's JSON: a
 * person's form that another site's page posted (server/plugins/csrf.ts), refused with section 8's 403 in the portal's
 * frame, leading to the sign-in page; and a session Redis cannot tell of just now (server/session/plugin.ts), a 503
 * asking to try again in a moment; and a page's form its body rules refuse (a field no form has, not urlencoded, too large),
 * a page that says so, what was typed kept by the browser for Back. Every other error is the app's
 * (server/plugins/errors.ts): thrown on to it.
 */
export const refusedForm =
  (screens: Screens) => (error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => {
    if (request.url.startsWith("/api/")) throw error;
    const refusal = personsRefusal(error, request);
    if (!refusal) throw error;
    if (error instanceof Refusal) reply.headers(error.headers);
    const { status, ...entry } = refusal;
    const body = <AboutPage context={pageContextOf(screens, request)} entry={entry} />;
    return reply.page({ status, title: entry.title, body });
  };

/** The page a refusal is to a person, by what refused: none for a refusal an /api caller meets as JSON. */
function personsRefusal(error: FastifyError | Error, request: FastifyRequest) {
  if (error instanceof CrossSiteRefusal)
    return { status: error.statusCode, title: errorTexts.accessDenied, about: accessTexts.crossSiteForm };
  if (error instanceof Refusal && error.code === serverTexts.sessionUnavailable.code)
    return { status: 503, title: serverTexts.sessionUnavailable.title, about: serverTexts.sessionUnavailable.message };
  if (request.routeOptions.config.policy !== "page") return undefined;
  const validation = "validation" in error && Boolean(error.validation);
  const status = validation ? 400 : (error as FastifyError).statusCode;
  const text =
    status === 413 ? serverTexts.formTooLarge : validation || status === 415 ? serverTexts.formRefused : undefined;
  return text && { status, title: serverTexts.invalidRequest.message, about: text.message };
}

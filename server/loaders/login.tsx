// requirements 2.2: the sign-in page (also at /tax-bridge/login). A signed-in person goes on to their landing.

import type { Config } from "#server/config.ts";
import { type Loaded, type PageRequest, pageContextOf, redirect, type Screens } from "#server/loaders/screen.ts";
import { isNavigation } from "#server/loaders/visits.ts";
import { isLoopback } from "#server/security/loopback.ts";
import { safePath } from "#server/security/safe-path.ts";
import { type Flash, standing } from "#server/session/fields.ts";
import { personOpened } from "#server/session/plugin.ts";
import { endNotice } from "#server/session/why-ended.ts";
import { takeFlash } from "#server/session/writes.ts";
import type { FormAnswer, ResetAnswer } from "#web/protocol/form-answer.ts";
import type { RouteEntry } from "#web/routes/row.ts";
import { matchRoute, sectionAudience } from "#web/routes/table.ts";
import { LoginPage } from "#web/screens/login-page.tsx";
import { landingUrl, pathnameOf } from "#web/site.ts";
import { documentTitle } from "#web/texts/document-title.ts";
import { loginNotices } from "#web/texts/login-notices.ts";
import { loginTexts } from "#web/texts/login-screen.ts";
import { mfaTexts } from "#web/texts/mfa.ts";
import { resetTexts } from "#web/texts/reset.ts";

const siteValues = ["CLIENT", "VENDOR"] as const;

export function loadLogin(screens: Screens, entry: RouteEntry, request: PageRequest, sentBack?: FormAnswer): Loaded {
  const auth = request.auth;
  // The page a signed-out person first asked for (a section page put it in the address); checked again on landing.
  const returnTo = request.query.return ? safePath(request.query.return) : undefined;
  const state = standing(request);
  if (state === "password-change") return redirect("/mfa");
  if (state === "signed-in") return redirect(landingUrl(returnTo));
  // The one-time notice is used up by the document the person sees, never by an icon or a prefetch.
  const flash =
    (isNavigation(request) ? noticeOf(takeFlash(request), screens.context.config) : undefined) ??
    ("signed-out" in request.query ? { error: loginTexts.signedOut } : undefined);
  // The tab: as asked, else the audience of the page first asked for (a vendor's deep link opens the vendor tab).
  const asked = askedEntryOf(returnTo)?.section;
  const returnSite = asked && asked !== "public" ? sectionAudience[asked].toUpperCase() : undefined;
  // `?site=vendor` is the tabs' own link (they work before the island arrives); a form sent back keeps its site.
  const answer = sentBack?.form === "login" || sentBack?.form === "reset" ? sentBack : undefined;
  const linkSite = answer?.site ?? request.query.site;
  const activeSite = siteValues.find(
    (value) => value === (linkSite ? linkSite.toUpperCase() : (request.query.activeSite ?? returnSite)),
  );
  // The Reset Password link opens the panel (`?reset`); a reset form sent back shows it again, or its confirmation.
  const reset =
    answer?.form === "reset"
      ? resetOf(answer)
      : "reset" in request.query
        ? { sent: request.query.reset === "sent" }
        : undefined;
  const page = pageContextOf(screens, request);
  // A kept deep link names where the sign-in leads ("Sign in to continue to Aging Report").
  const askedEntry = askedEntryOf(returnTo);
  const continueTo = askedEntry && askedEntry.section !== "public" ? askedEntry.title : undefined;
  const loginTitle = continueTo ? loginNotices.continueTo(continueTo) : entry.title;
  // The tab names the step shown; the island changes it as the page moves between them.
  const titles = { login: loginTitle, mfa: mfaTexts.heading, reset: resetTexts.heading };
  const login = {
    titles: {
      login: documentTitle(titles.login),
      mfa: documentTitle(titles.mfa),
      reset: documentTitle(titles.reset),
    },
    support: page.support,
    providerName: page.providerName,
    landing: landingUrl(returnTo),
    ...(answer?.form === "login"
      ? { flash: { error: answer.note.text }, typed: answer.typed }
      : flash
        ? { flash }
        : {}),
    ...(activeSite ? { activeSite } : {}),
    ...(reset ? { reset } : {}),
    ...(returnTo ? { returnTo } : {}),
    ...(entry.screen === "tax-bridge-login" ? { taxBridge: true as const } : {}),
    ...(auth && state === "pending"
      ? {
          pending: {
            site: auth.site,
            company: auth.company ?? "",
            userName: auth.userName,
            loginMessage: auth.loginMessage,
            ...(personOpened(request) ? {} : { quiet: true as const }),
          },
        }
      : {}),
  };
  // A Secure cookie is dropped over plain http except on loopback: say so, instead of a sign-in that fails silently.
  const plainHttp = screens.context.config.cookieSecure && request.protocol === "http" && !isLoopback(request.hostname);
  const title = auth?.stage === "pending" ? titles.mfa : titles.login;
  const leadsTo = continueTo ? loginTitle : undefined;
  return { title, body: <LoginPage context={page} login={login} plainHttp={plainHttp} leadsTo={leadsTo} /> };
}

/**
 * The session's notice in words: why the session before ended, said here. requirements 2.2's navigation-state
 * pathname is followed only when it stays on this origin.
 */
function noticeOf(flash: Flash | undefined, config: Config): { error: string; pathname?: string } | undefined {
  const error = flash?.ended ? endNotice(config, flash.ended) : flash?.error;
  if (error === undefined) return undefined;
  const pathname = flash?.pathname ? safePath(flash.pathname) : undefined;
  return pathname ? { error, pathname } : { error };
}

/** The reset panel as a form sent back leaves it: its confirmation, or its note and what was typed. */
const resetOf = ({ sent, note, typed }: ResetAnswer) => ({
  sent,
  ...(note ? { note } : {}),
  ...(typed ? { typed } : {}),
});

/** The route table's row of the page a signed-out person first asked for. */
const askedEntryOf = (returnTo: string | undefined): RouteEntry | undefined =>
  returnTo ? matchRoute(pathnameOf(returnTo))?.entry : undefined;

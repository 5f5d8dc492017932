// Every page of the route table, decided on the server: who may see it, its gate, its status, then one render.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ReactElement } from "react";
import type { AppContext } from "#server/context.ts";
import { permissionsFor } from "#server/permissions.ts";
import { readManifest } from "#server/render/assets.ts";
import { cspNonces, nonceSource } from "#server/render/nonce.ts";
import { renderPage } from "#server/render/render-page.ts";
import { safePath } from "#server/safe-path.ts";
import {
  enterTaxBridge,
  expire,
  type Flash,
  rememberVisit,
  sessionTimes,
  signedIn,
  takeFlash,
  taxBridgeEntered,
} from "#server/session/data.ts";
import { isNavigation } from "#server/tracking.ts";
import { gates } from "#web/gates.ts";
import { AboutPage } from "#web/pages/about-page.tsx";
import { IslandPage } from "#web/pages/island-page.tsx";
import { LoginPage } from "#web/pages/login-page.tsx";
import type { PageContext } from "#web/pages/page-context.ts";
import { SectionPage, type SectionScreen } from "#web/pages/section-page.tsx";
import type { RouteEntry, SignedInSection } from "#web/routes/row.ts";
import { matchRoute, type RouteMatch, sectionAudience, sectionOf } from "#web/routes/table.ts";
import { landingPath, linkSite, type UserInfo } from "#web/site.ts";
import { layoutTexts } from "#web/texts/layout.ts";
import { loginTexts } from "#web/texts/login.ts";
import { mfaTexts } from "#web/texts/mfa.ts";
import { sectionTexts } from "#web/texts/sections.ts";

type Query = Record<string, string | undefined>;
type PageRequest = FastifyRequest<{ Querystring: Query }>;

/** How long the checking page waits before it asks again, when permissions could not be had. */
export const CHECKING_RETRY_SECONDS = 5;
/** How long before the idle limit a signed-in page shows its warning. */
export const IDLE_WARNING_SECONDS = 60;

export async function pageRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const assets = readManifest();
  app.decorateRequest("visit", undefined);
  const pageContext = (request: FastifyRequest): PageContext => {
    const auth = signedIn(request);
    return {
      assets,
      support: context.config.support,
      providerName: context.config.providerName,
      taxBridge: taxBridgeOn(context, request),
      path: pathnameOf(request.url),
      ...(auth ? { user: { name: auth.userName, site: auth.site } } : {}),
      year: new Date(context.now()).getUTCFullYear(),
    };
  };

  // SPEC.md 4.8: a signed-in navigation is a visit, recorded once its answer has gone (never on the response path).
  app.addHook("onResponse", (request, _reply, done) => {
    const visit = request.visit;
    if (visit) context.tracker.enqueue(visit);
    done();
  });

  /** Renders a page; a signed-in navigation to it is marked as a visit (its cookie then remembers the path). */
  const send = (reply: FastifyReply, status: number, title: string, body: ReactElement) => {
    const request = reply.request;
    const auth = signedIn(request);
    const path = pathnameOf(request.url);
    const now = context.now();
    if (auth && isNavigation(request) && rememberVisit(request, path, now))
      request.visit = { token: auth.token, page: path };
    // A signed-in page warns a minute before the idle limit, and at the limit asks whether the session has ended.
    const idleLeft = auth
      ? (sessionTimes(request).seen + context.config.session.idleSeconds * 1000 - now) / 1000
      : undefined;
    if (idleLeft !== undefined && !reply.hasHeader("refresh"))
      reply.header("refresh", `${Math.ceil(idleLeft) + 2}; url=/session/idle?return=${encodeURIComponent(path)}`);
    return reply
      .code(status)
      .type("text/html; charset=utf-8")
      .header("cache-control", "no-store")
      .send(
        renderPage(body, {
          key: pageKey(body),
          title: `${title} · ${layoutTexts.brand}`,
          assets,
          nonce: cspNonces(reply.raw),
          idleWarningAfter: idleLeft === undefined ? undefined : idleLeft - IDLE_WARNING_SECONDS,
        }),
      );
  };

  app.get<{ Querystring: Query }>(
    "/*",
    { helmet: { contentSecurityPolicy: { directives: pageDirectives } } },
    async (request, reply) => {
      const pathname = pathnameOf(request.url);
      const match = matchRoute(pathname);
      request.pageRoute = match?.entry.path;
      const section = match ? signedInSection(match.entry) : sectionOf(pathname);
      if (section) return sectionPage(section, match, request, reply);
      if (match) return publicPage(match.entry, request, reply);
      return reply.redirect("/", 302);
    },
  );

  /** SPEC.md 2.8–2.12 and 6: a session of the section's audience, its permissions known, the row's gate passed. */
  async function sectionPage(
    section: SignedInSection,
    match: RouteMatch | undefined,
    request: PageRequest,
    reply: FastifyReply,
  ) {
    const auth = request.auth;
    if (!auth) return reply.redirect("/", 302);
    if (auth.stage === "pending" || auth.loginMessage === "Password Expired") return reply.redirect("/mfa", 302);
    const audience = sectionAudience[section];
    const show = (status: number, title: string, screen: SectionScreen, permissions?: UserInfo) =>
      send(
        reply,
        status,
        title,
        <SectionPage
          context={pageContext(request)}
          section={section}
          audience={audience}
          permissions={permissions}
          screen={screen}
        />,
      );
    // Another audience's section: the forbidden page, without a navigation that is not this user's.
    if (auth.site !== audience) return show(403, sectionTexts.forbiddenTitle, { kind: "forbidden" });

    // Nothing renders before the permissions are known: the cache answers, or one upstream call for this page.
    const permissions = await permissionsFor(context, request);
    if (!signedIn(request)) return reply.redirect("/", 302); // the upstream refused the token: session expired
    if (!permissions) {
      // 4.7's waiting state, as a server that never renders a page before it knows the permissions can show it.
      reply.header("refresh", String(CHECKING_RETRY_SECONDS)).header("retry-after", String(CHECKING_RETRY_SECONDS));
      return show(503, sectionTexts.checkingTitle, { kind: "checking" });
    }
    if (!match) return show(404, sectionTexts.notFoundTitle, { kind: "not-found" }, permissions);
    const { entry } = match;
    const denied = entry.screen === "forbidden" || (entry.gate !== undefined && !gates[entry.gate](permissions));
    if (denied) return show(403, sectionTexts.forbiddenTitle, { kind: "forbidden" }, permissions);
    return show(200, entry.title, { kind: "entry", entry }, permissions);
  }

  function publicPage(entry: RouteEntry, request: PageRequest, reply: FastifyReply) {
    const auth = request.auth;
    switch (entry.screen) {
      case "tax-bridge-login":
        // DESIGN.md: tax-bridge mode is on for a session that entered here; signing in lands on 2.7's landing.
        // A GET from another site never writes the session; a signed-in session's mode is not switched behind it.
        if (!crossSite(request) && !signedIn(request)) enterTaxBridge(request);
        return loginPage(entry, request, reply);
      case "login":
        return loginPage(entry, request, reply);
      case "mfa": {
        if (auth?.stage === "pending") {
          const { site, userName, loginMessage } = auth;
          return send(
            reply,
            200,
            entry.title,
            <IslandPage
              context={pageContext(request)}
              title={entry.title}
              name="mfa"
              props={{ site, userName, loginMessage, taxBridge: taxBridgeOn(context, request) }}
            />,
          );
        }
        if (auth?.loginMessage === "Password Expired") {
          const props = {
            audience: auth.site,
            userName: auth.userName || undefined,
            redirect: true,
            notice: mfaTexts.passwordExpired,
          };
          return send(
            reply,
            200,
            entry.title,
            <IslandPage context={pageContext(request)} title={entry.title} name="change-password" props={props} />,
          );
        }
        if (auth) return reply.redirect(landingPath(auth.site, taxBridgeOn(context, request)), 302);
        // A GET from another site never writes the session (it would sign a victim out).
        if (!crossSite(request)) expire(request, "not-signed-in");
        return reply.redirect("/", 302);
      }
      case "link-login": {
        const props = { uuid: request.query.uuid ?? null, site: linkSite(request.query.type ?? null) };
        return send(
          reply,
          200,
          entry.title,
          <IslandPage context={pageContext(request)} title={entry.title} name="link-login" props={props} />,
        );
      }
      default:
        return send(reply, 200, entry.title, <AboutPage context={pageContext(request)} entry={entry} />);
    }
  }

  function loginPage(entry: RouteEntry, request: PageRequest, reply: FastifyReply) {
    const auth = request.auth;
    if (auth?.stage === "signed-in") {
      return reply.redirect(
        auth.loginMessage === "Password Expired" ? "/mfa" : landingPath(auth.site, taxBridgeOn(context, request)),
        302,
      );
    }
    // The one-time notice is used up by the document the person sees, never by an icon or a prefetch.
    const flash =
      (isNavigation(request) ? sameOriginFlash(takeFlash(request)) : undefined) ??
      ("signed-out" in request.query ? { error: loginTexts.signedOut } : undefined);
    const activeSite = siteValues.find((value) => value === request.query.activeSite);
    const page = pageContext(request);
    const login = {
      support: page.support,
      providerName: page.providerName,
      taxBridge: page.taxBridge,
      ...(flash ? { flash } : {}),
      ...(activeSite ? { activeSite } : {}),
      ...(auth?.stage === "pending"
        ? { pending: { site: auth.site, userName: auth.userName, loginMessage: auth.loginMessage } }
        : {}),
    };
    return send(reply, 200, entry.title, <LoginPage context={page} login={login} />);
  }
}

const siteValues = ["CLIENT", "VENDOR"] as const;

const signedInSection = (entry: RouteEntry): SignedInSection | undefined =>
  entry.section === "public" ? undefined : entry.section;

/** The path of a request as the browser sent it (what wouter would see as `location.pathname`). */
const pathnameOf = (url: string): string => url.split(/[?#]/, 1)[0] ?? "/";

const taxBridgeOn = (context: AppContext, request: FastifyRequest) =>
  context.config.taxBridge || taxBridgeEntered(request);

/** A request another site started (a link or a form there): it may read, never write, the session. */
const crossSite = (request: FastifyRequest) => {
  const site = request.headers["sec-fetch-site"];
  return site !== undefined && site !== "same-origin" && site !== "none";
};

declare module "fastify" {
  interface FastifyRequest {
    /** The page visit this answer records once sent (SPEC.md 4.8). */
    visit: { token: string; page: string } | undefined;
  }
}

/** SPEC.md 2.2's navigation-state pathname is followed only when it stays on this origin. */
function sameOriginFlash(flash: Flash | undefined): Flash | undefined {
  if (!flash) return undefined;
  const pathname = flash.pathname ? safePath(flash.pathname) : undefined;
  return pathname ? { error: flash.error, pathname } : { error: flash.error };
}

/** The pages' policy, with each answer's script and style nonces (helmet asks for them as it writes the policy). */
const pageDirectives = {
  "default-src": ["'self'"],
  "script-src": ["'strict-dynamic'", "'self'", nonceSource("script")],
  "style-src": ["'self'", nonceSource("style")],
  "img-src": ["'self'", "data:"],
  "frame-src": ["'self'"],
  "object-src": ["'none'"],
  "base-uri": ["'none'"],
  "form-action": ["'self'"],
  "frame-ancestors": ["'self'"],
};

/**
 * What decides a page's HTML: its component and props, the build's assets (fixed for the process) left out. Plain
 * JSON, with no replacer: a replacer function is called for every key of every page.
 */
const pageKey = (body: ReactElement) => {
  const component = typeof body.type === "function" ? body.type.name : String(body.type);
  const { context, ...props } = body.props as { context?: PageContext };
  const shown = context ? { ...context, assets: undefined } : undefined;
  return `${component}\n${JSON.stringify(shown)}\n${JSON.stringify(props)}`;
};

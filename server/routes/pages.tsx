// Every page of the route table, decided on the server: who may see it, its gate, its status, then one render.
import { randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ReactElement } from "react";
import type { AppContext } from "#server/context.ts";
import { permissionsFor } from "#server/permissions.ts";
import { readManifest } from "#server/render/assets.ts";
import { renderPage } from "#server/render/render-page.ts";
import { safePath } from "#server/safe-path.ts";
import { currentAuth, endSession, type Flash, signedIn, takeFlash } from "#server/session.ts";
import { trackVisit } from "#server/tracking.ts";
import { gates } from "#web/gates.ts";
import { AboutPage } from "#web/pages/about-page.tsx";
import { IslandPage } from "#web/pages/island-page.tsx";
import { LoginPage } from "#web/pages/login-page.tsx";
import type { PageContext } from "#web/pages/page-context.ts";
import { SectionPage, type SectionScreen } from "#web/pages/section-page.tsx";
import { matchRoute, type RouteEntry, sectionAudience, sectionOf } from "#web/routes.ts";
import { landingPath, linkSite } from "#web/site.ts";
import { errorTexts } from "#web/texts/errors.ts";
import { layoutTexts } from "#web/texts/layout.ts";
import { mfaTexts } from "#web/texts/mfa.ts";

type Query = Record<string, string | undefined>;

export async function pageRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const assets = readManifest();
  const pageContext = (request: FastifyRequest): PageContext => {
    const auth = signedIn(request);
    return {
      assets,
      support: context.config.support,
      providerName: context.config.providerName,
      taxBridge: taxBridgeOn(context, request),
      ...(auth ? { user: { name: auth.userName, site: auth.site } } : {}),
      year: new Date(context.now()).getUTCFullYear(),
    };
  };

  const send = (reply: FastifyReply, status: number, title: string, body: ReactElement) => {
    const nonce = randomBytes(16).toString("base64");
    const auth = signedIn(reply.request);
    if (auth) trackVisit(context, reply.request, auth, new URL(reply.request.url, "http://portal").pathname);
    return reply
      .code(status)
      .type("text/html; charset=utf-8")
      .header("cache-control", "no-store")
      .header("content-security-policy", contentSecurityPolicy(nonce))
      .send(renderPage(body, { title: `${title} · ${layoutTexts.brand}`, assets, nonce }));
  };

  app.get<{ Querystring: Query }>("/*", async (request, reply) => {
    const pathname = new URL(request.url, "http://portal").pathname;
    const match = matchRoute(pathname);
    const section = match ? (match.entry.section === "public" ? undefined : match.entry.section) : sectionOf(pathname);
    if (!section) {
      if (!match) return reply.redirect("/", 302);
      return publicPage(match.entry, request, reply);
    }

    // A section page: a signed-in session of the section's audience, past any forced password change.
    const auth = currentAuth(request);
    if (!auth) return reply.redirect("/", 302);
    if (context.tracker.expired(auth.token)) {
      endSession(request, { error: errorTexts.sessionExpired });
      return reply.redirect("/", 302);
    }
    if (auth.stage === "pending" || auth.loginMessage === "Password Expired") return reply.redirect("/mfa", 302);
    const audience = sectionAudience[section];
    const page = pageContext(request);
    const render = (
      status: number,
      title: string,
      screen: SectionScreen,
      permissions = request.session.get("perms")?.info,
    ) =>
      send(
        reply,
        status,
        title,
        <SectionPage
          context={page}
          section={section}
          audience={audience}
          permissions={permissions}
          current={pathname}
          screen={screen}
        />,
      );

    if (auth.site !== audience) return render(403, "Forbidden", { kind: "forbidden" });
    const permissions = await permissionsFor(context, request);
    if (!signedIn(request)) return reply.redirect("/", 302);
    if (!permissions) return render(503, "Checking User Permissions", { kind: "checking" }).header("refresh", "5");
    if (!match) return render(404, "Not Found", { kind: "not-found" }, permissions);
    const { entry } = match;
    if (entry.gate && !gates[entry.gate](permissions))
      return render(403, "Forbidden", { kind: "forbidden" }, permissions);
    return render(200, entry.title, { kind: "entry", entry }, permissions);
  });

  function publicPage(entry: RouteEntry, request: FastifyRequest<{ Querystring: Query }>, reply: FastifyReply) {
    const auth = currentAuth(request);
    switch (entry.screen) {
      case "tax-bridge-login":
        request.session.set("taxBridge", true);
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
        endSession(request, { error: errorTexts.sessionExpired });
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

  function loginPage(entry: RouteEntry, request: FastifyRequest<{ Querystring: Query }>, reply: FastifyReply) {
    const auth = currentAuth(request);
    if (auth?.stage === "signed-in") {
      return reply.redirect(
        auth.loginMessage === "Password Expired" ? "/mfa" : landingPath(auth.site, taxBridgeOn(context, request)),
        302,
      );
    }
    const flash = sameOriginFlash(takeFlash(request));
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

const taxBridgeOn = (context: AppContext, request: FastifyRequest) =>
  context.config.taxBridge || request.session.get("taxBridge") === true;

/** SPEC.md 2.2's navigation-state pathname is followed only when it stays on this origin. */
function sameOriginFlash(flash: Flash | undefined): Flash | undefined {
  if (!flash) return undefined;
  const pathname = flash.pathname ? safePath(flash.pathname) : undefined;
  return pathname ? { error: flash.error, pathname } : { error: flash.error };
}

export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic' 'self'`,
    "style-src 'self'",
    "img-src 'self' data:",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join("; ");
}

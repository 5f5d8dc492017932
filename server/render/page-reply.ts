// `reply.page(view)`: the one way a page is sent. It owns the answer's nonce (the one the page's CSP names), the idle
// warning and its Refresh header, no-store, the kept render, and marks a signed-in navigation as a visit.
import type { FastifyInstance, FastifyReply } from "fastify";
import type { ReactElement } from "react";
import type { AppContext } from "#server/context.ts";
import type { PageView } from "#server/pages/screen.ts";
import { pathnameOf } from "#server/pages/screen.ts";
import { nonceOf } from "#server/render/nonce.ts";
import { renderPage } from "#server/render/render-page.ts";
import { byItself, personActed } from "#server/session/activity.ts";
import { pastMfa, sessionTimes, signedInOn } from "#server/session/standing.ts";
import { rememberVisit } from "#server/session/writes.ts";
import { isNavigation } from "#server/tracking.ts";
import type { AssetManifest, PageContext } from "#web/pages/page-context.ts";
import { layoutTexts } from "#web/texts/layout.ts";

/** How long before the idle limit a signed-in page shows its warning. */
export const IDLE_WARNING_SECONDS = 60;

export function decoratePage(app: FastifyInstance, context: AppContext, assets: AssetManifest): void {
  app.decorateRequest("visit", undefined);
  app.decorateReply("page", function page(this: FastifyReply, view: PageView) {
    const request = this.request;
    const path = pathnameOf(request.url);
    const now = context.now();
    // A navigation is a visit on a page framed as the person's own (server/session/standing.ts, `signedInOn`).
    const auth = signedInOn(request, view.ownForm === true);
    if (auth && isNavigation(request) && rememberVisit(request, path, now, personActed(request)))
      request.visit = { token: auth.token, page: path };
    // The page asks again by itself: no activity (server/session/activity.ts).
    if (view.retryAfter !== undefined)
      this.header("refresh", `${view.retryAfter}; url=${byItself(request.url)}`).header(
        "retry-after",
        String(view.retryAfter),
      );
    // A signed-in page warns a minute before the idle limit, and at the limit asks whether the session has ended.
    const idleLeft = pastMfa(request)
      ? (sessionTimes(request).seen + context.config.session.idleSeconds * 1000 - now) / 1000
      : undefined;
    if (idleLeft !== undefined && !this.hasHeader("refresh"))
      this.header("refresh", `${Math.ceil(idleLeft) + 2}; url=/session/idle?return=${encodeURIComponent(path)}`);
    return this.code(view.status ?? 200)
      .type("text/html; charset=utf-8")
      .header("cache-control", "no-store")
      .send(
        renderPage(view.body, {
          key: pageKey(view.body),
          title: layoutTexts.documentTitle(view.title),
          assets,
          nonce: nonceOf(this.raw),
          idleWarningAfter: idleLeft === undefined ? undefined : idleLeft - IDLE_WARNING_SECONDS,
        }),
      );
  });
}

/**
 * What decides a page's HTML: its component and props. The frame's assets are fixed for the process and left out, by
 * a copy rather than a replacer function (called for every key, it was a twentieth of a page's CPU).
 */
const pageKey = (body: ReactElement) => {
  const component = typeof body.type === "function" ? body.type.name : String(body.type);
  const { context, ...props } = body.props as { context?: PageContext };
  return `${component}\n${JSON.stringify([context && { ...context, assets: undefined }, props])}`;
};

declare module "fastify" {
  interface FastifyRequest {
    /** The page visit this answer records once sent (requirements 4.8). */
    visit: { token: string; page: string } | undefined;
  }
  interface FastifyReply {
    page(view: PageView): FastifyReply;
  }
}

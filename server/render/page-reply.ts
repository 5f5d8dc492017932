// `reply.page(view)`: the one way a page is sent. It owns the answer's nonce (the one the page's CSP names), the idle
// warning's times and the kept render; it only renders (a visit is noted before it, server/loaders/visits.ts). No cache
// keeps a page: the session scope's hook in server/app.ts says so for every answer in it.
import { constants } from "node:zlib";
import fastifyCompress from "@fastify/compress";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ReactElement } from "react";
import { sessionDigest } from "#server/account/security-log.ts";
import type { AppContext } from "#server/context.ts";
import type { PageView } from "#server/loaders/screen.ts";
import { ownRequest } from "#server/plugins/csrf.ts";
import { nonceOf } from "#server/plugins/nonce.ts";
import { writePageHeaders } from "#server/plugins/security-headers.ts";
import { renderPage } from "#server/render/render-page.ts";
import { byItself, personActed } from "#server/session/activity.ts";
import { pastMfa, sessionId, sessionTimes } from "#server/session/standing.ts";
import { IDLE_CHECK_MARGIN_SECONDS, IDLE_WARNING_SECONDS, idleCheckUrl } from "#web/idle-timing.ts";
import type { AssetManifest, PageContext } from "#web/page-context.ts";
import type { IdleSlots } from "#web/screens/document.tsx";
import { pathnameOf } from "#web/site.ts";
import { layoutTexts } from "#web/texts/layout.ts";

/** Smaller pages gain less than their compression costs. */
const COMPRESS_FROM_BYTES = 1024;

export async function decoratePage(app: FastifyInstance, context: AppContext, assets: AssetManifest): Promise<void> {
  // Only `reply.compress`, called below: no other answer is compressed (global: false). Brotli at quality 5: within a
  // few percent of 11's size on a page, at a tenth of its CPU.
  await app.register(fastifyCompress, {
    global: false,
    encodings: ["br", "gzip"],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
  });
  app.decorateReply("page", function page(this: FastifyReply, view: PageView) {
    const request = this.request;
    // The page asks again by itself: no activity (server/session/activity.ts).
    if (view.retryAfter !== undefined)
      this.header("refresh", `${view.retryAfter}; url=${byItself(view.retryPath ?? request.url)}`).header(
        "retry-after",
        String(view.retryAfter),
      );
    if (view.moveOn) this.header("refresh", `${view.moveOn.seconds}; url=${view.moveOn.to}`);
    // A signed-in page warns a minute before the idle limit, and at the limit asks whether the session has ended.
    // A page the person asked for restarts the idle time on its answer (server/session/activity.ts): counted from now.
    this.code(view.status ?? 200);
    // A page answered on a route that is no page's (another site's form refused) still loads its styles and scripts.
    if (request.routeOptions.config.policy !== "page") writePageHeaders(request.raw, this.raw);
    const left = idleLeft(request, context, context.now(), personActed(request, this));
    const html = renderPage(view.body, {
      key: pageKey(view.body),
      title: layoutTexts.documentTitle(view.title),
      assets,
      nonce: nonceOf(this.raw),
      idle: left === undefined ? undefined : idleTimes(left, pathnameOf(request.url), sessionId(request)),
    });
    this.type("text/html; charset=utf-8");
    // Compressed only for the portal's own requests and the person's, never for one another site started (BREACH:
    // docs/decisions.md, "Compressing the pages").
    // A page made before the route's own hooks ran (a refusal of the session's, server/session/plugin.ts) has no
    // compressor yet: it is sent as it is.
    const compress = (this as { compress?: unknown }).compress;
    if (!ownRequest(request) || html.length < COMPRESS_FROM_BYTES || typeof compress !== "function")
      return this.send(html);
    this.compress(html);
    return this;
  });
}

/**
 * Seconds left before a signed-in session's idle limit; undefined for anyone not signed in. `acting`: this request is
 * the person's action, which restarts the idle time once it is answered, so the time counts from `now`.
 */
export function idleLeft(
  request: FastifyRequest,
  context: AppContext,
  now: number,
  acting = false,
): number | undefined {
  if (!pastMfa(request)) return undefined;
  const from = acting ? now : sessionTimes(request).seen;
  return (from + context.config.session.idleSeconds * 1000 - now) / 1000;
}

/** The idle times a signed-in page carries (web/screens/document.tsx), and the session it was shown for. */
function idleTimes(left: number, path: string, sid: string | undefined): IdleSlots {
  const checkIn = String(Math.ceil(left) + IDLE_CHECK_MARGIN_SECONDS);
  return {
    warnAfter: String(Math.max(0, Math.round(left - IDLE_WARNING_SECONDS))),
    checkIn,
    refresh: `${checkIn}; url=${idleCheckUrl(path)}`,
    session: sid ? sessionDigest(sid) : "",
  };
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
  interface FastifyReply {
    page(view: PageView): FastifyReply;
  }
}

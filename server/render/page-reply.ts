// `reply.page(view)`: the one way a page is sent. It owns the answer's nonce (the one the page's CSP names), the idle
// warning's times and the kept render; it only renders (a visit is noted before it, server/loaders/visits.ts). No cache
// keeps a page: the session scope's hook in server/app.ts says so for every answer in it. A page is a pure function
// of its props, so the HTML of recent pages is kept (lru-cache, by the page's key); what changes with each answer (the
// nonces, the idle times) is written into slots of the kept HTML.
import { randomBytes } from "node:crypto";
import { constants } from "node:zlib";
import fastifyCompress from "@fastify/compress";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { LRUCache } from "lru-cache";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup, renderToString } from "react-dom/server";
import { sessionDigest } from "#server/account/security-log.ts";
import type { AppContext } from "#server/context.ts";
import type { PageView } from "#server/loaders/screen.ts";
import { ownRequest } from "#server/plugins/csrf.ts";
import { nonceOf, writePageHeaders } from "#server/plugins/security-headers.ts";
import { pastMfa, sessionId, sessionTimes } from "#server/session/fields.ts";
import { byItself, personActed } from "#server/session/plugin.ts";
import { IDLE_CHECK_MARGIN_SECONDS, IDLE_WARNING_SECONDS, idleCheckUrl } from "#web/idle-timing.ts";
import type { AssetManifest, PageContext } from "#web/page-context.ts";
import { Document, type IdleSlots } from "#web/screens/document.tsx";
import { pathnameOf } from "#web/site.ts";
import { layoutTexts } from "#web/texts/layout.ts";

/**
 * Stand for an answer's own values in kept HTML. Random for each process and never sent (every answer has them
 * replaced), so nothing a page shows (a path, a return address) can contain them.
 */
const SLOT_ID = randomBytes(12).toString("hex");
const NONCE_SLOT = `nonce-slot-${SLOT_ID}`;
const IDLE_SLOTS: IdleSlots = {
  warnAfter: `idle-warn-slot-${SLOT_ID}`,
  checkIn: `idle-check-slot-${SLOT_ID}`,
  refresh: `idle-refresh-slot-${SLOT_ID}`,
  session: `idle-session-slot-${SLOT_ID}`,
};
const SLOTS = new RegExp(`(${[NONCE_SLOT, ...Object.values(IDLE_SLOTS)].join("|")})`);
/** Pages kept (a few KB each); beyond this the least recently used goes. */
const MAX_KEPT_PAGES = 1_000;

/** A page's HTML cut at its slots: `text[0] slot[0] text[1] slot[1] … text[n]`. */
type KeptPage = { text: Buffer[]; slots: string[] };

const kept = new LRUCache<string, KeptPage>({ max: MAX_KEPT_PAGES });

function cut(html: string): KeptPage {
  const pieces = html.split(SLOTS);
  return {
    text: pieces.filter((_, i) => i % 2 === 0).map((piece) => Buffer.from(piece, "utf8")),
    slots: pieces.filter((_, i) => i % 2 === 1),
  };
}

function render(body: ReactElement, title: string, assets: AssetManifest, signedIn: boolean): string {
  const bodyHtml = renderToString(body);
  const islands = [...new Set(Array.from(bodyHtml.matchAll(/data-island="([\w-]+)"/g), (match) => match[1] ?? ""))];
  const document = createElement(Document, {
    title,
    assets,
    nonce: { script: NONCE_SLOT, style: NONCE_SLOT },
    islands,
    bodyHtml,
    idle: signedIn ? IDLE_SLOTS : undefined,
  });
  return `<!DOCTYPE html>${renderToStaticMarkup(document)}`;
}

type RenderOptions = {
  /** What decides the page's HTML besides the answer's own values: the same key, the same HTML. */
  key: string;
  title: string;
  assets: AssetManifest;
  /** The answer's CSP nonce, for its scripts and styles. */
  nonce: string;
  /** Signed-in pages: their idle times and their session's digest (written into the HTML as they are). */
  idle?: IdleSlots | undefined;
};

function renderPage(body: ReactElement, { key, title, assets, nonce, idle }: RenderOptions): Buffer {
  const signedIn = idle !== undefined;
  const fullKey = `${title}\n${signedIn}\n${key}`;
  let page = kept.get(fullKey);
  if (page === undefined) {
    page = cut(render(body, title, assets, signedIn));
    kept.set(fullKey, page);
  }
  const values: Record<string, Buffer> = { [NONCE_SLOT]: Buffer.from(nonce, "latin1") };
  if (idle)
    for (const [name, slot] of Object.entries(IDLE_SLOTS)) values[slot] = Buffer.from(idle[name as keyof IdleSlots]);
  const parts: Buffer[] = [];
  for (const [i, text] of page.text.entries()) {
    parts.push(text);
    const slot = page.slots[i];
    if (slot !== undefined) parts.push(values[slot] as Buffer);
  }
  return Buffer.concat(parts);
}

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
    // The page asks again by itself: no activity (server/session/plugin.ts).
    if (view.retryAfter !== undefined)
      this.header("refresh", `${view.retryAfter}; url=${byItself(view.retryPath ?? request.url)}`).header(
        "retry-after",
        String(view.retryAfter),
      );
    if (view.moveOn) this.header("refresh", `${view.moveOn.seconds}; url=${view.moveOn.to}`);
    // A signed-in page warns a minute before the idle limit, and at the limit asks whether the session has ended.
    // A page the person asked for restarts the idle time on its answer (server/session/plugin.ts): counted from now.
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

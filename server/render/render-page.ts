// Renders a page to HTML once: the body first, so the document knows which islands to load. A page is a pure
// function of its props, so the HTML of recent pages is kept (lru-cache, by an explicit key the caller gives); what
// changes with each answer (the nonces, the idle times) is written into slots of the kept HTML.
import { randomBytes } from "node:crypto";
import { LRUCache } from "lru-cache";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup, renderToString } from "react-dom/server";
import type { AssetManifest } from "#web/page-context.ts";
import { Document, type IdleSlots } from "#web/screens/document.tsx";

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
export const MAX_KEPT_PAGES = 1_000;

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

export type RenderOptions = {
  /** What decides the page's HTML besides the answer's own values: the same key, the same HTML. */
  key: string;
  title: string;
  assets: AssetManifest;
  /** The answer's CSP nonce, for its scripts and styles. */
  nonce: string;
  /**
   * Signed-in pages: their idle times, each a number or a same-origin URL, and their session's digest (written into
   * the HTML as they are).
   */
  idle?: IdleSlots | undefined;
};

export function renderPage(body: ReactElement, { key, title, assets, nonce, idle }: RenderOptions): Buffer {
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

// Renders a page to HTML once: the body first, so the document knows which islands to load. A page is a pure
// function of its props, so the HTML of recent props is kept; what changes with each answer (the nonce, the idle
// warning's delay) is written into slots of the kept HTML.
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup, renderToString } from "react-dom/server";
import { Document } from "#web/pages/document.tsx";
import type { AssetManifest } from "#web/pages/page-context.ts";

/** Stand for an answer's own values in kept HTML; nothing a page shows can contain them. */
const NONCE_SLOT = "nonce-slot-4c1e9b7d";
const IDLE_SLOT = "idle-slot-4c1e9b7d";
/** Pages kept; beyond this the oldest goes (a page is a few KB, so the cache stays within a few MB). */
export const MAX_KEPT_PAGES = 1_000;

const kept = new Map<string, string>();

function render(body: ReactElement, title: string, assets: AssetManifest, signedIn: boolean): string {
  const bodyHtml = renderToString(body);
  const islands = [...new Set(Array.from(bodyHtml.matchAll(/data-island="([\w-]+)"/g), (match) => match[1] ?? ""))];
  const document = createElement(Document, {
    title,
    assets,
    nonce: NONCE_SLOT,
    islands,
    bodyHtml,
    idleWarningAfter: signedIn ? IDLE_SLOT : undefined,
  });
  return `<!DOCTYPE html>${renderToStaticMarkup(document)}`;
}

/** The props that decide a page; the manifest is the same for the process's whole life. */
const keyOf = (body: ReactElement, title: string, signedIn: boolean) => {
  const component = typeof body.type === "function" ? body.type.name : String(body.type);
  const props = JSON.stringify(body.props, (name, value) => (name === "assets" ? undefined : value));
  return `${component}\n${title}\n${signedIn}\n${props}`;
};

export type Answer = {
  title: string;
  assets: AssetManifest;
  nonce: string;
  /** Signed-in pages: seconds until the idle-timeout warning shows. */
  idleWarningAfter?: number | undefined;
};

export function renderPage(body: ReactElement, { title, assets, nonce, idleWarningAfter }: Answer): string {
  const signedIn = idleWarningAfter !== undefined;
  const key = keyOf(body, title, signedIn);
  let html = kept.get(key);
  if (html === undefined) {
    html = render(body, title, assets, signedIn);
    if (kept.size >= MAX_KEPT_PAGES) kept.delete(kept.keys().next().value ?? "");
    kept.set(key, html);
  }
  html = html.replaceAll(NONCE_SLOT, nonce);
  return signedIn ? html.replace(IDLE_SLOT, String(Math.max(0, Math.round(idleWarningAfter)))) : html;
}

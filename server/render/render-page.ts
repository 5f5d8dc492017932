// Renders a page to HTML once: the body first, so the document knows which islands to load. A page is a pure
// function of its props, so the HTML of recent props is kept and only the answer's nonce is written in afresh.
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup, renderToString } from "react-dom/server";
import { Document } from "#web/pages/document.tsx";
import type { AssetManifest } from "#web/pages/page-context.ts";

/** Stands for the nonce in kept HTML; nothing a page shows can contain it (React escapes no letter or dash). */
const NONCE_SLOT = "nonce-slot-4c1e9b7d";
/** Pages kept; beyond this the oldest goes (a page is a few KB, so the cache stays within a few MB). */
export const MAX_KEPT_PAGES = 1_000;

const kept = new Map<string, string>();

function render(body: ReactElement, title: string, assets: AssetManifest): string {
  const bodyHtml = renderToString(body);
  const islands = [...new Set(Array.from(bodyHtml.matchAll(/data-island="([\w-]+)"/g), (match) => match[1] ?? ""))];
  const nonce = NONCE_SLOT;
  return `<!DOCTYPE html>${renderToStaticMarkup(createElement(Document, { title, assets, nonce, islands, bodyHtml }))}`;
}

/** The props that decide a page; the manifest is the same for the process's whole life. */
const keyOf = (body: ReactElement, title: string) => {
  const component = typeof body.type === "function" ? body.type.name : String(body.type);
  return `${component}\n${title}\n${JSON.stringify(body.props, (name, value) => (name === "assets" ? undefined : value))}`;
};

export function renderPage(
  body: ReactElement,
  { title, assets, nonce }: { title: string; assets: AssetManifest; nonce: string },
): string {
  const key = keyOf(body, title);
  let html = kept.get(key);
  if (html === undefined) {
    html = render(body, title, assets);
    if (kept.size >= MAX_KEPT_PAGES) kept.delete(kept.keys().next().value ?? "");
    kept.set(key, html);
  }
  return html.replaceAll(NONCE_SLOT, nonce);
}

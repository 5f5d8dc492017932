// Renders a page to HTML once: the body first, so the document knows which islands to load.
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup, renderToString } from "react-dom/server";
import { Document } from "#web/pages/document.tsx";
import type { AssetManifest } from "#web/pages/page-context.ts";

export function renderPage(
  body: ReactElement,
  { title, assets, nonce }: { title: string; assets: AssetManifest; nonce: string },
) {
  const bodyHtml = renderToString(body);
  const islands = [...new Set(Array.from(bodyHtml.matchAll(/data-island="([\w-]+)"/g), (match) => match[1] ?? ""))];
  return `<!DOCTYPE html>${renderToStaticMarkup(createElement(Document, { title, assets, nonce, islands, bodyHtml }))}`;
}

// The HTML document around every page: what it asks the browser to fetch, and how urgently.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Document } from "#web/screens/document.tsx";

const assets = {
  css: "/assets/portal.css",
  hydrate: "/assets/hydrate.js",
  islands: {
    login: ["/assets/login-island.js", "/assets/chunk-react.js", "/assets/chunk-note.js"],
    mfa: ["/assets/mfa-island.js", "/assets/chunk-react.js"],
  },
  images: {},
};
const page = (islands: string[]) =>
  renderToStaticMarkup(
    createElement(Document, { title: "Login", assets, nonce: { script: "n", style: "n" }, islands, bodyHtml: "" }),
  );

describe("the document", () => {
  it("asks for the islands' scripts at low priority, so they never delay the first paint of a form that works without them", () => {
    const html = page(["login"]);
    // HTML's attribute names are case-insensitive: React writes fetchPriority.
    assert.match(html, /<script type="module" src="\/assets\/hydrate\.js"[^>]*fetchpriority="low"/i);
    assert.match(html, /<link rel="modulepreload" href="\/assets\/login-island\.js"[^>]*fetchpriority="low"/i);
    assert.match(html, /<link rel="stylesheet" href="\/assets\/portal\.css"\/>/);
  });

  it("preloads each island with every chunk it imports, so the browser asks for them all at once; a chunk shared once", () => {
    const preloaded = [...page(["login", "mfa"]).matchAll(/rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(preloaded, [
      "/assets/login-island.js",
      "/assets/chunk-react.js",
      "/assets/chunk-note.js",
      "/assets/mfa-island.js",
    ]);
  });

  it("carries no script at all on a page without an island", () => {
    assert.doesNotMatch(page([]), /<script|modulepreload/);
  });
});

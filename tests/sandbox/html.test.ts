// What the sandbox's HTML pages share (sandbox/html.ts): escaping, the document around a page, its headers.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import Fastify from "fastify";
import { escapeHtml, htmlDocument, inlineScript, sendHtml } from "#sandbox/html.ts";

describe("escaping", () => {
  test("the five characters that can end a text or an attribute are escaped, everything else is left as it is", () => {
    assert.equal(
      escapeHtml(`<a href="x" title='y'>&</a>`),
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
    assert.equal(escapeHtml("Grüße, ünïcode / = ` 😀"), "Grüße, ünïcode / = ` 😀");
    assert.equal(escapeHtml(""), "");
  });

  test("an already escaped text is escaped again, so it shows as written rather than as what it stands for", () => {
    assert.equal(escapeHtml("&lt;script&gt;"), "&amp;lt;script&amp;gt;");
  });
});

describe("the page document", () => {
  test("the title is escaped and the main is placed as given, in an English document with a viewport", () => {
    const html = htmlDocument("<Mail> & more", "<p>Hello</p>");
    assert.ok(html.startsWith('<!doctype html>\n<html lang="en">'));
    assert.ok(html.includes("<title>&lt;Mail&gt; &amp; more</title>"));
    assert.ok(html.includes("<main>\n<p>Hello</p>\n</main>"));
    assert.ok(html.includes('<meta name="viewport" content="width=device-width, initial-scale=1">'));
    assert.doesNotMatch(html, /<script|<link|src=/, "a page loads nothing and runs nothing");
  });

  test("a page is sent uncached, with a policy that allows only its own style and forms posted back to itself", async () => {
    const app = Fastify({ logger: false });
    app.get("/page", async (_request, reply) => sendHtml(reply, 418, htmlDocument("T", "<p>x</p>")));
    try {
      const answer = await app.inject({ method: "GET", url: "/page" });
      assert.equal(answer.statusCode, 418);
      assert.equal(answer.headers["content-type"], "text/html; charset=utf-8");
      assert.equal(
        answer.headers["content-security-policy"],
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
      );
      assert.equal(answer.headers["cache-control"], "no-store");
      assert.equal(answer.headers["referrer-policy"], "strict-origin");
      assert.ok(answer.body.includes("<p>x</p>"));
    } finally {
      await app.close();
    }
  });

  test("a page with a script names it by its hash and nothing more; a branded one carries the portal's header", async () => {
    const script = inlineScript("document.title = 'x';");
    assert.match(script.source, /^'sha256-[\w+/]+=*'$/);
    const html = htmlDocument("T", "<p>x</p>", { brandHref: "/", script });
    assert.ok(html.includes('<header class="site-header">') && html.includes('<a class="brand" href="/">'));
    assert.ok(html.includes("<script>document.title = 'x';</script>"));
    assert.doesNotMatch(htmlDocument("T", "<p>x</p>"), /<header/, "the mailbox and the other pages have none");
    const app = Fastify({ logger: false });
    app.get("/page", async (_request, reply) => sendHtml(reply, 200, html, [script.source]));
    try {
      const answer = await app.inject({ method: "GET", url: "/page" });
      assert.equal(
        answer.headers["content-security-policy"],
        `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; script-src ${script.source}`,
      );
    } finally {
      await app.close();
    }
  });
});

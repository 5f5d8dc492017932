// What every HTML page of the sandbox shares: escaping, one small stylesheet, the document around a page's main and
// the headers it is sent with; for the pages a person meets (the password reset), the portal's brand and colours.
import { createHash } from "node:crypto";
import type { FastifyReply } from "fastify";
import { brandColours, logoColours, logoDot, logoParts } from "#web/brand.ts";
import { brand } from "#web/texts/document-title.ts";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}

// Inline, as the pages' policy allows no other source (no file, and a script only by its hash): each page is one
// self-contained answer. The portal's stylesheet is the portal's to serve; its colour tokens come from web/brand.ts,
// and the success colour and the checklist's rules are portal.css's own.
const STYLE = `
  :root { --portal-primary: ${brandColours.primary}; --portal-secondary: ${brandColours.secondary};
    --portal-tertiary: ${brandColours.tertiary}; --portal-success: #1a7f37; }
  [hidden] { display: none !important; }
  body { font-family: system-ui, sans-serif; line-height: 1.5; margin: 0; color: #1b1b1b; background: #fafafa; }
  main { max-width: 60rem; margin: 0 auto; padding: 1.5rem 1rem; }
  h1 { color: var(--portal-primary); font-size: 1.75rem; line-height: 1.2; }
  .site-header { background: #fff; border-bottom: 3px solid var(--portal-secondary); }
  .site-header-bar { display: flex; align-items: center; min-height: 61px; padding: 0 1rem; max-width: 60rem; margin: 0 auto; }
  .brand { display: inline-flex; align-items: center; gap: 0.625rem; min-height: 44px; color: var(--portal-primary);
    font-size: 1.125rem; font-weight: 700; text-decoration: none; }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  .nowrap { white-space: nowrap; }
  form.reset-form { flex-direction: column; align-items: stretch; max-width: 34rem; }
  form.reset-form button { align-self: start; min-height: 44px; padding: 0.5rem 1rem; }
  label.check-row { flex-direction: row; align-items: center; gap: 0.5rem; min-height: 44px; font-weight: 400; }
  .password-requirements p { margin: 0; }
  .password-requirements ul { padding: 0; margin: 0.25rem 0 0; }
  .password-requirements li { display: flex; list-style: none; }
  .password-requirements .check { flex: none; width: 1.5em; }
  .password-requirements .met .check { color: var(--portal-success); }
  .requirement-list { display: block; }
  article, form, table { background: #fff; border: 1px solid #ccc; border-radius: 6px; }
  article { padding: 0.75rem 1rem; margin: 1rem 0; }
  article h3 { margin: 0 0 0.25rem; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0 1rem; margin: 0; }
  dt { font-weight: 600; }
  dd { margin: 0; }
  pre { white-space: pre-wrap; word-break: break-word; background: #f3f3f3; padding: 0.75rem; }
  form { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: end; padding: 1rem; }
  label { display: flex; flex-direction: column; font-weight: 600; }
  input, select, button { font: inherit; padding: 0.35rem 0.5rem; }
  button { background: var(--portal-primary); color: #fff; border: 0; border-radius: 4px; cursor: pointer; }
  table { border-collapse: collapse; width: 100%; }
  .table-scroll { overflow-x: auto; max-width: 100%; }
  .table-scroll table { min-width: 40rem; }
  main { overflow-wrap: anywhere; }
  th, td { text-align: left; padding: 0.35rem 0.6rem; border-bottom: 1px solid #ddd; vertical-align: top; }
  [role="status"] { background: #e8f3ea; border-left: 4px solid #2e7d32; padding: 0.5rem 1rem; }
  [role="alert"] { background: #fbeaea; border-left: 4px solid #b3261e; padding: 0.5rem 1rem; }
  a { color: #135a78; }
`;

/** A page's one script, inline, and the policy's source that lets exactly it run ('sha256-…' of its text). */
export interface PageScript {
  html: string;
  source: string;
}

/** `code` (plain ASCII, no `</script>`) as an inline script and its hash, computed once as its module loads. */
export function inlineScript(code: string): PageScript {
  return { html: `<script>${code}</script>`, source: `'sha256-${createHash("sha256").update(code).digest("base64")}'` };
}

/** The portal's logo as the portal's header draws it (web/components/logo.tsx), in its light colours. */
const logo = `<svg width="36" height="36" viewBox="0 0 48 48" aria-hidden="true">${logoParts
  .map(({ part, d }) => `<path d="${d}" fill="${logoColours.light[part]}"/>`)
  .join("")}<circle cx="${logoDot.cx}" cy="${logoDot.cy}" r="${logoDot.r}" fill="${logoColours.light.dot}"/></svg>`;

export interface DocumentOptions {
  /** The portal's header, its brand linking here (the portal's sign-in page): the pages a person meets. */
  brandHref?: string;
  /** Run after the page's content; sent with `sendHtml(..., [script.source])`. */
  script?: PageScript;
}

/** A whole page: `title` (already plain text) in the head, `main` (already escaped HTML) as its content. */
export function htmlDocument(title: string, main: string, options: DocumentOptions = {}): string {
  const header =
    options.brandHref === undefined
      ? ""
      : `<header class="site-header"><div class="site-header-bar"><a class="brand" href="${escapeHtml(options.brandHref)}">${logo}<span>${escapeHtml(brand)}</span></a></div></header>\n`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${header}<main>
${main}
</main>
${options.script?.html ?? ""}
</body>
</html>
`;
}

/**
 * The pages load nothing and run no script but the ones `scripts` names by their hash; their forms post only here.
 * Never cached, and their address never sent on as a referrer (only the origin is): they carry codes and links, and a
 * reset page's address holds its token.
 * Not `no-referrer`: with it Chromium sends a form's `Origin` as `null`, which the portal's CSRF rule refuses.
 */
export function sendHtml(
  reply: FastifyReply,
  status: number,
  html: string,
  scripts: readonly string[] = [],
): FastifyReply {
  const script = scripts.length === 0 ? "" : `; script-src ${scripts.join(" ")}`;
  return reply
    .code(status)
    .type("text/html; charset=utf-8")
    .header("content-security-policy", `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${script}`)
    .header("cache-control", "no-store")
    .header("referrer-policy", "strict-origin")
    .send(html);
}

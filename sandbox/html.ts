// What every HTML page of the sandbox shares: escaping, one small stylesheet, the document around a page's main and
// the headers it is sent with.
import type { FastifyReply } from "fastify";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}

// Inline, as the pages' policy allows no other source (no script, no file): each page is one self-contained answer.
const STYLE = `
  body { font-family: system-ui, sans-serif; line-height: 1.5; margin: 0; color: #1b1b1b; background: #fafafa; }
  main { max-width: 60rem; margin: 0 auto; padding: 1.5rem 1rem; }
  h1 { color: #522239; }
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
  button { background: #522239; color: #fff; border: 0; border-radius: 4px; cursor: pointer; }
  table { border-collapse: collapse; width: 100%; }
  .table-scroll { overflow-x: auto; max-width: 100%; }
  .table-scroll table { min-width: 40rem; }
  main { overflow-wrap: anywhere; }
  th, td { text-align: left; padding: 0.35rem 0.6rem; border-bottom: 1px solid #ddd; vertical-align: top; }
  [role="status"] { background: #e8f3ea; border-left: 4px solid #2e7d32; padding: 0.5rem 1rem; }
  [role="alert"] { background: #fbeaea; border-left: 4px solid #b3261e; padding: 0.5rem 1rem; }
  a { color: #135a78; }
`;

/** A whole page: `title` (already plain text) in the head, `main` (already escaped HTML) as its content. */
export function htmlDocument(title: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${main}
</main>
</body>
</html>
`;
}

/**
 * The pages run no script and load nothing; their forms post only here. Never cached, and their address never sent
 * on as a referrer (only the origin is): they carry codes and links, and a reset page's address holds its token.
 * Not `no-referrer`: with it Chromium sends a form's `Origin` as `null`, which the portal's CSRF rule refuses.
 */
export function sendHtml(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .code(status)
    .type("text/html; charset=utf-8")
    .header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'")
    .header("cache-control", "no-store")
    .header("referrer-policy", "strict-origin")
    .send(html);
}

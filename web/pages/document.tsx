// The HTML document around every page: stylesheet, and the hydration script only when the page carries islands.
import { idleWarningStyle } from "#web/components/idle-warning.tsx";
import type { AssetManifest } from "#web/pages/page-context.ts";

type DocumentProps = {
  title: string;
  assets: AssetManifest;
  /** The answer's CSP nonces: one for its scripts, one for its styles. */
  nonce: { script: string; style: string };
  islands: string[];
  bodyHtml: string;
  /** Set on signed-in pages: seconds until the idle warning shows (a placeholder the server fills per answer). */
  idleWarningAfter?: string | undefined;
};

export function Document({ title, assets, nonce, islands, bodyHtml, idleWarningAfter }: DocumentProps) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>{title}</title>
        {assets.images["logo.svg"] ? <link rel="icon" href={assets.images["logo.svg"]} type="image/svg+xml" /> : null}
        <link rel="stylesheet" href={assets.css} />
        {idleWarningAfter ? <style nonce={nonce.style}>{idleWarningStyle(idleWarningAfter)}</style> : null}
        {islands.length > 0 ? <script type="module" src={assets.hydrate} nonce={nonce.script} /> : null}
        {islands.map((name) =>
          assets.islands[name] ? (
            <link key={name} rel="modulepreload" href={assets.islands[name]} nonce={nonce.script} />
          ) : null,
        )}
      </head>
      <body dangerouslySetInnerHTML={{ __html: bodyHtml }} />
    </html>
  );
}

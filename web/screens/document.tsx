// The HTML document around every page: stylesheet, and the hydration script only when the page carries islands.
import { idleWarningStyle } from "#web/components/idle-warning.tsx";
import type { AssetManifest } from "#web/page-context.ts";

type DocumentProps = {
  title: string;
  assets: AssetManifest;
  /** The answer's CSP nonces: one for its scripts, one for its styles. */
  nonce: { script: string; style: string };
  islands: string[];
  bodyHtml: string;
  /** Set on signed-in pages: the idle warning's times (placeholders the server fills per answer). */
  idle?: IdleSlots | undefined;
};

/** A signed-in page's idle times, as written into it (server/render/page-reply.ts). */
export type IdleSlots = {
  /** Seconds until the warning shows. */
  warnAfter: string;
  /** Seconds until the page asks whether its session has ended (read by the warning's script). */
  checkIn: string;
  /** The same ask without scripts: a refresh's `seconds; url=…`. */
  refresh: string;
  /** Which session the page was shown for (a digest of its id): the script tells when another replaced it. */
  session: string;
};

/** The favicon and app icons drawn from the logo at build time (scripts/images/make-images.ts). */
function Icons({ images }: { images: AssetManifest["images"] }) {
  const link = (file: string, rel: string, extra: Record<string, string> = {}) =>
    images[file] ? <link key={file} rel={rel} href={images[file]} {...extra} /> : null;
  return (
    <>
      {link("favicon.svg", "icon", { type: "image/svg+xml" })}
      {link("icon-32.png", "icon", { type: "image/png", sizes: "32x32" })}
      {link("apple-touch-icon.png", "apple-touch-icon")}
      {link("site.webmanifest", "manifest")}
    </>
  );
}

export function Document({ title, assets, nonce, islands, bodyHtml, idle }: DocumentProps) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="theme-color" content="#522239" media="(prefers-color-scheme: light)" />
        <meta name="theme-color" content="#13171f" media="(prefers-color-scheme: dark)" />
        <title>{title}</title>
        <Icons images={assets.images} />
        <link rel="stylesheet" href={assets.css} />
        {/* Signed-in pages (those with an idle warning) are the section pages: they add the section layouts. */}
        {idle && assets.sectionsCss ? <link rel="stylesheet" href={assets.sectionsCss} /> : null}
        {idle ? <style nonce={nonce.style}>{idleWarningStyle(idle.warnAfter)}</style> : null}
        {/* Without scripts, the page asks at its idle limit by itself; with them, the warning's script asks. */}
        {idle ? (
          <noscript>
            <meta httpEquiv="refresh" content={idle.refresh} />
          </noscript>
        ) : null}
        {idle && assets.idleWarning ? <script type="module" src={assets.idleWarning} nonce={nonce.script} /> : null}
        {/* Low priority: the page's forms work before their script (server-rendered, real posts), so the islands'
            scripts must not compete with the stylesheet for the first paint. */}
        {islands.length > 0 ? (
          <script type="module" src={assets.hydrate} nonce={nonce.script} fetchPriority="low" />
        ) : null}
        {[...new Set(islands.flatMap((name) => assets.islands[name] ?? []))].map((href) => (
          <link key={href} rel="modulepreload" href={href} nonce={nonce.script} fetchPriority="low" />
        ))}
      </head>
      <body
        data-idle-check={idle?.checkIn}
        data-session={idle?.session}
        dangerouslySetInnerHTML={{ __html: bodyHtml }}
      />
    </html>
  );
}

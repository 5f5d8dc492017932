// The idle-timeout warning of a signed-in page, without JavaScript: hidden until a minute before the session's idle
// limit (a CSS animation whose delay the server writes into each answer), then "Stay signed in" posts and comes back.
// At the limit, the answer's Refresh header asks /session/idle whether the session ended (docs/decisions.md).
import { layoutTexts } from "#web/texts/layout.ts";

/**
 * Its rules travel in the page's nonce-bearing style element, so pages without a session never carry them. The delay
 * is a CSS animation's: `step-start`, since Chromium keeps `step-end`'s `visibility` hidden once a delay has run, and
 * its own delay under reduced motion, where Pico sets every animation's delay to -1ms (it is a timer, not a motion).
 * It keeps
 * 1rem from the screen's edges: in the bottom right corner, 24rem wide, on a desktop; 1rem on each side on a phone
 * (left and right both set, and the left margin auto, so the right edge wins once the width is capped).
 */
export const idleWarningStyle = (delaySeconds: string) =>
  `.idle-warning{position:fixed;left:1rem;right:1rem;bottom:1rem;margin-left:auto;max-width:24rem;z-index:10;visibility:hidden;animation:idle-warning 1ms step-start ${delaySeconds}s forwards}@media (prefers-reduced-motion:reduce){div.idle-warning{animation-delay:${delaySeconds}s!important}}.idle-warning article{margin:0}@keyframes idle-warning{to{visibility:visible}}`;

export function IdleWarning({ path }: { path: string }) {
  return (
    <div className="idle-warning" role="alert">
      <article>
        <p>{layoutTexts.idleWarning}</p>
        <form method="post" action="/session/stay">
          <input type="hidden" name="return" value={path} />
          <button type="submit">{layoutTexts.staySignedIn}</button>
        </form>
      </article>
    </div>
  );
}

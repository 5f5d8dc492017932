// The idle-timeout warning of a signed-in page. Without JavaScript it is whole: hidden until a minute before the
// session's idle limit (a CSS animation whose delay the server writes into each answer); "Stay signed in" posts and
// comes back; at the limit the page's <noscript> refresh asks /session/idle whether the session ended
// (docs/decisions.md). The page's script (web/client/idle-warning.ts) adds a countdown, "Stay signed in" without
// leaving the page, a way to dismiss it, and keeps it clear of the field being typed in.
import { layoutTexts } from "#web/texts/layout.ts";

/**
 * Its rules travel in the page's nonce-bearing style element, so pages without a session never carry them. The delay
 * is a CSS animation's: `step-start`, since Chromium keeps `step-end`'s `visibility` hidden once a delay has run, and
 * its own delay under reduced motion, where Pico sets every animation's delay to -1ms (it is a timer, not a motion).
 * It keeps 1rem from the screen's edges: in the bottom right corner, 24rem wide, on a desktop; 1rem on each side on a
 * phone (left and right both set, and the left margin auto, so the right edge wins once the width is capped).
 */
export const idleWarningStyle = (delaySeconds: string) =>
  `.idle-warning{position:fixed;left:1rem;right:1rem;bottom:1rem;margin-left:auto;max-width:24rem;z-index:10;visibility:hidden;animation:idle-warning 1ms step-start ${delaySeconds}s forwards}@media (prefers-reduced-motion:reduce){div.idle-warning{animation-delay:${delaySeconds}s!important}}.idle-warning article{margin:0}@keyframes idle-warning{to{visibility:visible}}`;

export function IdleWarning({ path }: { path: string }) {
  return (
    <div className="idle-warning" role="alert">
      <article>
        <p>{layoutTexts.idleWarning}</p>
        {/* Kept and shown by the page's script; a timer is not announced each second. */}
        <p className="idle-countdown" role="timer" aria-live="off" hidden>
          {layoutTexts.idleCountdown} <span className="idle-seconds" />
        </p>
        <div className="idle-actions">
          <form method="post" action="/session/stay" className="idle-stay">
            <input type="hidden" name="return" value={path} />
            <button type="submit">{layoutTexts.staySignedIn}</button>
          </form>
          <form method="post" action="/session/logout">
            <button type="submit" className="secondary outline">
              {layoutTexts.signOutNow}
            </button>
          </form>
        </div>
        <button type="button" className="idle-dismiss" aria-label={layoutTexts.dismissIdleWarning} hidden>
          ×
        </button>
      </article>
    </div>
  );
}

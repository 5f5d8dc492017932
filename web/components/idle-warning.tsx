// The idle-timeout warning of a signed-in page. Without JavaScript it is whole: hidden until a minute before the
// session's idle limit (a CSS animation whose delay the server writes into each answer); "Stay signed in" posts and
// comes back; at the limit the page's <noscript> refresh asks /session/idle whether the session ended
// (docs/decisions.md). The page's script (web/client/session-watch.ts) adds a countdown, "Stay signed in" without
// leaving the page, a way to dismiss it, keeps it clear of the field being typed in, and, once the session has ended
// whatever ended it, turns it into the notice of why, with the way to sign in again.
import { signInUrl } from "#web/site.ts";
import { layoutTexts } from "#web/texts/layout.ts";
import { loginTexts } from "#web/texts/login-screen.ts";
import { mfaTexts } from "#web/texts/mfa.ts";

/**
 * Its rules travel in the page's nonce-bearing style element, so pages without a session never carry them (the
 * sign-in page's expired-password step writes them when it shows the warning: web/components/sign-in-idle-warning.tsx).
 * It keeps 1rem from the screen's edges: in the bottom right corner, 24rem wide, on a desktop; 1rem on each side on a
 * phone (left and right both set, and the left margin auto, so the right edge wins once the width is capped).
 *
 * `delaySeconds`, on a page that carries the warning from its first load: the warning shows after it without
 * JavaScript (the script, once it runs, takes the timing over). Without it, only the script shows the warning.
 */
export const idleWarningStyle = (delaySeconds?: string) =>
  `${place}${delaySeconds === undefined ? "" : delayed(delaySeconds)}${look}`;

const place =
  ".idle-warning{position:fixed;left:1rem;right:1rem;bottom:1rem;margin-left:auto;max-width:24rem;z-index:10;visibility:hidden}";

/**
 * A CSS animation's delay: `step-start`, since Chromium keeps `step-end`'s `visibility` hidden once a delay has run,
 * and its own delay under reduced motion, where Pico sets every animation's delay to -1ms (it is a timer, not a motion).
 */
const delayed = (seconds: string) =>
  `.idle-warning{animation:idle-warning 1ms step-start ${seconds}s forwards}@media (prefers-reduced-motion:reduce){div.idle-warning{animation-delay:${seconds}s!important}}@keyframes idle-warning{to{visibility:visible}}`;

/**
 * It stands out from the cards behind it, in dark mode too: tinted with the warning's colour, a warning-coloured edge
 * and a deeper shadow. Its dismiss button (shown by the script) sits in the corner, in the text's colour (Pico gives a
 * button's own colour the inverse of the primary: white).
 */
const look =
  ".idle-warning article{margin:0;position:relative;background:color-mix(in srgb,var(--portal-warning) 12%,var(--pico-card-background-color));border:1px solid var(--portal-warning);border-left-width:.375rem;box-shadow:0 .5rem 1.5rem rgb(0 0 0/.35),var(--pico-card-box-shadow);padding-right:2.75rem}" +
  ".idle-warning p{margin-bottom:.5rem}.idle-countdown{font-weight:600;font-variant-numeric:tabular-nums}" +
  ".idle-actions{display:flex;flex-wrap:wrap;gap:.5rem}.idle-actions form,.idle-actions button{margin:0}" +
  ".idle-warning .idle-dismiss{position:absolute;top:.25rem;right:.25rem;width:2.75rem;height:2.75rem;margin:0;padding:0;border:0;background:transparent;color:inherit;font-size:1.5rem;line-height:1}";

/** The sign-in page, saying "You have signed out." as the sign-out's own answer does (`?signed-out`). */
const signedOutUrl = (path: string) => {
  const url = signInUrl(path);
  return `${url}${url.includes("?") ? "&" : "?"}signed-out`;
};

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
        {/*
          Shown by the script alone, in the warning's place, once the session has ended: why, in the server's words
          (written into the first paragraph), or in the page's own for the two ends the server cannot tell (a sign-out
          in another tab, which leaves no session to ask about; a sign-in there, which left another session).
        */}
        <div className="session-ended" hidden>
          <p className="session-ended-words" />
          {/* The sign-in page cannot ask why for a session signed out (none is left): the address tells it. */}
          <p data-ended="signed-out" hidden>
            {loginTexts.signedOut} <a href={signedOutUrl(path)}>{mfaTexts.signInAgain}</a>
          </p>
          <p data-ended="replaced" hidden>
            {layoutTexts.sessionReplaced} <a href={signInUrl(path)}>{layoutTexts.continueWithNewSignIn}</a>
          </p>
          <p className="session-ended-sign-in">
            <a href={signInUrl(path)}>{mfaTexts.signInAgain}</a>
          </p>
        </div>
      </article>
    </div>
  );
}

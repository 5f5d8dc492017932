// When a signed-in page warns of the idle limit and asks whether its session has ended: shared by the server, which
// writes the times into each page, and the page's script, which keeps them once "Stay signed in" restarts the clock and
// asks again every few seconds.

/** How long before the idle limit a signed-in page shows its warning. */
export const IDLE_WARNING_SECONDS = 60;

/** The check comes this long after the limit, so the session has surely ended when it is asked. */
export const IDLE_CHECK_MARGIN_SECONDS = 2;

/**
 * How often a page in view asks whether its session is still its own and live: a session ended elsewhere is told
 * within this long. The ask costs the server no write (server/routes/session.ts).
 */
export const STATUS_CHECK_SECONDS = 5;

/** Where a page asks, at its idle limit, whether its session has ended (server/routes/session.ts). */
export const idleCheckUrl = (path: string) => `/session/idle?return=${encodeURIComponent(path)}`;

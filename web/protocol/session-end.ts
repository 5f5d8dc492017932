// Why a session ended: the session keeps the reason, the sign-in page (web/texts/login-notices.ts) puts it in words, and
// a signed-in page's script learns it from /session/idle (its answers are typed here) to say it where the person is.

/** Every reason a session ends for. */
export const endReasons = [
  "signed-out",
  "replaced",
  "revoked",
  "limit",
  "ended-elsewhere",
  "password-changed",
  "password-reset",
  "idle",
  "lifetime",
  "upstream-refused",
  "code-not-sent",
  "mfa-attempts",
  "too-large",
  "not-signed-in",
] as const;

export type EndReason = (typeof endReasons)[number];

/** Ends the person chose: the sign-in page has nothing to tell them, so the session keeps no notice for it. */
export const unannounced = (reason: EndReason): boolean => reason === "signed-out" || reason === "replaced";

/**
 * What /session/idle and /session/stay answer a page's script while the session lives: the seconds left before the
 * idle limit, and which session answered (a digest of its id), so a page shown for another session knows it was
 * replaced.
 */
export type SessionLeft = { idleSeconds: number; session: string };

/**
 * Their answer (401) once the session has ended: why, and the sign-in page's words for it. A request that brought no
 * session is told `not-signed-in`, and nothing more.
 */
export type SessionOver = { detail: string; ended: EndReason };

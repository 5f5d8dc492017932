// Why a session ended: the session keeps the reason, the sign-in page (web/texts/login-notices.ts) puts it in words.

/** Every reason a session ends for. */
export const endReasons = [
  "signed-out",
  "replaced",
  "revoked",
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

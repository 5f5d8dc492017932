// What the portal answers in place of upstream answers that carry a token: the token stays in the session.
import type { components } from "#openapi/schema.d.ts";

/** The header every island request carries; the portal refuses state-changing calls without it (CSRF). */
export const CSRF_HEADER = "X-Portal-Request";

/** A refused MFA code's verdict, as the portal answers it: how many more codes this sign-in may try. */
export type CountedVerdict = components["schemas"]["MfaVerdict"][number] & { attemptsLeft?: number };

/** Sent by the link page after the person's click: a sign-in link may then replace this browser's session (B2). */
export const REPLACE_SESSION_HEADER = "X-Portal-Replace-Session";

/** On a generate the portal did not pass on (a code went out moments ago): seconds until Send Again may be used. */
/** The browser's time zone, sent with each call: a sign-in keeps it, to write its times in the viewer's zone. */
export const TIME_ZONE_HEADER = "X-Portal-Time-Zone";

/**
 * requirements 9's "Send Again" cooldown, which both sides keep: the step disables the button this long after each
 * code, and the server does not send another within it (a reload of the step is told the seconds left in
 * `COOLDOWN_HEADER`).
 */
export const SEND_AGAIN_COOLDOWN_MS = 20_000;
export const COOLDOWN_HEADER = "x-mfa-cooldown-seconds";

/** An upstream answer with its `token` kept by the portal and replaced by whether one is held. */
export type Held<T> = Omit<T, "token"> & { tokenHeld: boolean };
export type HeldLogin = Held<components["schemas"]["LoginResponse"]>;
export type HeldLinkLogin = Held<components["schemas"]["LinkLoginResponse"]>;

/** Token-carrying answers are typed by the upstream spec; the portal's replacement is checked here at run time. */
export function asHeld<T extends object>(data: T | undefined): Held<T> | undefined {
  if (!data || typeof (data as { tokenHeld?: unknown }).tokenHeld !== "boolean") return undefined;
  return data as unknown as Held<T>;
}

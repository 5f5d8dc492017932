// The headers and timings the browser and the server both keep: each side imports them from here, never from the other.

/** The header every island request carries; the portal refuses state-changing calls without it (CSRF). */
export const CSRF_HEADER = "X-Portal-Request";

/** Sent by the link page after the person's click: a sign-in link may then replace this browser's session (B2). */
export const REPLACE_SESSION_HEADER = "X-Portal-Replace-Session";

/**
 * Sent with the login call of the `/tax-bridge/login` page: that sign-in, and only it, is in tax-bridge mode. The mode
 * is the sign-in's, never the browser's: no visit to a page writes it, so another site's link cannot set it, and the
 * next sign-in at the plain page is not in it.
 */
export const TAX_BRIDGE_HEADER = "X-Portal-Tax-Bridge";

/**
 * Sent by the MFA step with the silent check of its stored code (requirements 4.2), and only then: from a browser the
 * person does not trust, that check is answered "Failed" by the portal, never sent upstream and never counted as a
 * wrong code (server/security/device-cookie.ts). A typed code goes without it, and is counted.
 */
export const SILENT_CHECK_HEADER = "X-Portal-Silent-Check";

/** The browser's time zone, sent with each call: a sign-in keeps it, to write its times in the viewer's zone. */
export const TIME_ZONE_HEADER = "X-Portal-Time-Zone";

/**
 * requirements 9's "Send Again" cooldown, which both sides keep: the step disables the button this long after each
 * code, and the server does not send another within it (a reload of the step is told the seconds left in
 * `COOLDOWN_HEADER`).
 */
export const SEND_AGAIN_COOLDOWN_MS = 20_000;
/** How long a browser where a code passed signs in without one, after its last passed code (issue 41). */
export const DEVICE_TRUST_DAYS = 30;

/** On a generate the portal did not pass on (a code went out moments ago): seconds until Send Again may be used. */
export const COOLDOWN_HEADER = "x-mfa-cooldown-seconds";

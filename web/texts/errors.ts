// requirements 8: the shared answer texts, used by the browser's answer handler and by the server.
export const errorTexts = {
  actionFailed: "Action Failed",
  accessDenied: "Access Denied",
  endpointNotFound: "Endpoint Not Found",
  internalServerError: "Internal Server Error",
  sessionExpired: "Your session has expired. Please Login again",
  /**
   * The second sentence after a call's text when the upstream could not be reached or answered 5xx (issue 41): the
   * person's input was not the cause, so they do not retype it or doubt their password.
   */
  outage:
    "The service is not answering just now; nothing was wrong with what you typed. Please try again in a few minutes.",
} as const;

/**
 * The `code` field of the portal's own answers, beside `detail`, where the browser must tell one case from another
 * (docs/decisions.md, "Answers the browser tells apart").
 */
export const answerCodes = {
  /** 401: the pending sign-in ended after the last allowed wrong MFA code. */
  mfaAttemptsExhausted: "mfa-attempts-exhausted",
  /** 400: the portal's own check of a request (schema, size, address) refused it; its text is for developers. */
  invalidRequest: "invalid-request",
  /**
   * 401: the upstream refused a call made without a session (a sign-in, a link, a reset): there is no session to end,
   * so the island shows section 8's text where it is, and the person keeps what they typed.
   */
  refusedUnsigned: "refused-unsigned",
  /** 409: a sign-in link would replace this browser's session; the island asks first. */
  sessionExists: "session-exists",
  /** 502: the upstream answered, with a token too large to keep: no outage, and its words say what to do. */
  sessionTooLarge: "session-too-large",
} as const;

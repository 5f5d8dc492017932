// SPEC.md section 8: the shared answer texts, used by the browser's answer handler and by the server.
export const errorTexts = {
  actionFailed: "Action Failed",
  accessDenied: "Access Denied",
  endpointNotFound: "Endpoint Not Found",
  internalServerError: "Internal Server Error",
  sessionExpired: "Your session has expired. Please Login again",
  tooManyAttempts: "Too many attempts. Please wait a minute and try again.",
} as const;

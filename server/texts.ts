// The portal's own texts that docs/requirements.md does not give, each with a stable code that answers and tests refer to.

import { answerCodes } from "#web/texts/errors.ts";
import { loginNotices } from "#web/texts/login-notices.ts";
import { mfaTexts } from "#web/texts/mfa.ts";

export const serverTexts = {
  sessionTooLarge: { code: answerCodes.sessionTooLarge, message: loginNotices.sessionTooLarge },
  mfaAttemptsExhausted: { code: answerCodes.mfaAttemptsExhausted, message: mfaTexts.attemptsExhausted },
  sessionExists: { code: answerCodes.sessionExists, message: "A session is open in this browser." },
  /** The portal's own check of a request refused it (schema, body, address): the description is for developers. */
  invalidRequest: { code: answerCodes.invalidRequest, message: "Invalid request" },
  mfaInFlight: { code: "mfa-in-flight", message: "A code is already being checked. Please wait a moment." },
  passwordNotTested: {
    code: "password-not-tested",
    message: "Please enter your current password again before choosing a new one.",
  },
  throttled: {
    code: "throttled",
    message: (seconds: number) =>
      `Too many attempts. Please wait ${seconds} ${seconds === 1 ? "second" : "seconds"} and try again.`,
  },
  signInToRead: { code: "sign-in-to-read", message: "Sign in to read this document." },
  noSuchDocument: { code: "no-such-document", message: "No such document." },
  methodNotAllowed: { code: "method-not-allowed", message: "Method Not Allowed" },
  requestTooLarge: { code: "request-too-large", message: "The request is too large." },
  /** A page's form the portal could not read, said in its frame: the browser's Back keeps what was typed. */
  formRefused: {
    code: "form-refused",
    message: "The portal could not read this form. Please go back and send it again.",
  },
  formTooLarge: {
    code: "form-too-large",
    message:
      "This form sent more text than the portal reads. Please go back, shorten what you typed and send it again.",
  },
  addressTooLong: { code: "address-too-long", message: "The address is too long." },
  addressInvalid: { code: "address-invalid", message: "The address is not valid." },
  requestUnreadable: { code: "request-unreadable", message: "The request is not valid HTTP." },
  requestTooSlow: { code: "request-too-slow", message: "The request took too long to arrive." },
  headersTooLarge: { code: "headers-too-large", message: "The request's headers are too large." },
  expectationFailed: {
    code: "expectation-failed",
    message: "The request's Expect header is not one the portal meets.",
  },
  commonPassword: {
    code: "common-password",
    message: "This password is too common or too easy to guess. Please choose another.",
  },
  personalPassword: {
    code: "personal-password",
    message: "This password contains your user ID or company name. Please choose another.",
  },
  tooManyParameters: {
    code: "too-many-parameters",
    message: (most: number) => `The address has too many query parameters (at most ${most}).`,
  },
  jsonOnly: { code: "json-only", message: "The body must be JSON." },
  notFound: { code: "not-found", message: "Not Found" },
  shuttingDown: { code: "shutting-down", message: "The portal is restarting. Please try again in a moment." },
  /** A session this replica has not seen while Redis, which holds it, cannot answer: nothing ended, nothing guessed. */
  sessionUnavailable: {
    code: "session-unavailable",
    title: "Please try again in a moment",
    message: "Your session cannot be checked just now. Please try again in a moment.",
  },
} as const;

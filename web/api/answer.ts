// requirements 8, "Shared answer handling": the message a non-OK answer fails with, never a raw schema text.
import { answerCodes, errorTexts } from "#web/texts/errors.ts";

type ErrorBody = { detail?: unknown; description?: unknown; errors?: unknown; code?: unknown };

const text = (value: unknown): string | undefined => (typeof value === "string" && value ? value : undefined);

/**
 * The portal's own refusal of a request it checked (its schema, size or address rules): the text is written for
 * developers ("body must NOT have fewer than 1 characters"), so people get section 8's "Action Failed" instead.
 * Marked by `code: "invalid-request"` (server/plugins/errors.ts).
 */
export function isPortalRefusal(status: number, body: unknown): boolean {
  return status === 400 && answerCode(body) === answerCodes.invalidRequest;
}

/** The `code` of an answer's body, when the portal set one (web/texts/errors.ts `answerCodes`). */
export function answerCode(body: unknown): string | undefined {
  return body && typeof body === "object" ? text((body as ErrorBody).code) : undefined;
}

export function answerMessage(status: number, body: unknown): string {
  const fields: ErrorBody = body && typeof body === "object" ? (body as ErrorBody) : {};
  if (status === 403) return errorTexts.accessDenied;
  if (status === 404) return errorTexts.endpointNotFound;
  if (status === 500) return errorTexts.internalServerError;
  if (isPortalRefusal(status, body)) return errorTexts.actionFailed;
  if (status === 400) {
    if (fields.errors && typeof fields.errors === "object") {
      const last = text(Object.values(fields.errors).at(-1));
      if (last) return last;
    } else if (text(fields.description)) {
      return text(fields.description) as string;
    }
  }
  return text(fields.detail) ?? errorTexts.actionFailed;
}

/** A text as a sentence: section 8's texts are kept as they are spelled, and end in a full stop only when followed. */
const asSentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`);

/**
 * What a person reads of a failed call, on every form and island: section 8's message, and after it, when the upstream
 * could not be reached or answered 5xx (the portal answers its faults 502 or 504), that the service is not answering;
 * not after a token too large to keep, which the upstream did answer.
 */
export function failedCallText(status: number, body: unknown): string {
  const message = answerMessage(status, body);
  const outage = status >= 500 && answerCode(body) !== answerCodes.sessionTooLarge;
  return outage ? `${asSentence(message)} ${errorTexts.outage}` : message;
}

// SPEC.md section 8, "Shared answer handling": the message a non-OK answer fails with.
import { errorTexts } from "#web/texts/errors.ts";

type ErrorBody = { detail?: unknown; description?: unknown; errors?: unknown };

const text = (value: unknown): string | undefined => (typeof value === "string" && value ? value : undefined);

export function answerMessage(status: number, body: unknown): string {
  const fields: ErrorBody = body && typeof body === "object" ? (body as ErrorBody) : {};
  if (status === 403) return errorTexts.accessDenied;
  if (status === 404) return errorTexts.endpointNotFound;
  if (status === 500) return errorTexts.internalServerError;
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

// What of an upstream's failed answer reaches the browser: requirements 8's fields, as text (a 5xx's `detail` only).

/** The most of one text, and of field errors, that passes on. */
const MAX_TEXT = 500;
const MAX_FIELD_ERRORS = 50;

/**
 * A value of requirements 8's fields as text: a string, or an array of strings (RFC 9457 and the frameworks that send
 * problem details put a field's messages in an array), whose texts read one after another. Anything else is no text.
 */
export function textOf(value: unknown): string | undefined {
  const texts = typeof value === "string" ? [value] : Array.isArray(value) ? value : [];
  if (!texts.every((text) => typeof text === "string")) return undefined;
  const text = texts.filter(Boolean).join(" ");
  return text ? text.slice(0, MAX_TEXT) : undefined;
}

/**
 * Only requirements 8's fields pass to the browser, as text: "any non-OK" answer's `detail` (a 5xx's too, but a 500's,
 * whose text is its status's), and a 4xx's `description` and `errors` (400's fields). Field errors keep
 * their order and their last entry (the one requirements 8 shows): when that entry is not text, they pass on empty,
 * so the browser falls back to `detail` and never shows an earlier field's text in its place.
 */
export function errorShape(status: number, body: unknown): Record<string, unknown> {
  if (status === 500 || !body || typeof body !== "object") return {};
  const { detail, description, errors } = body as Record<string, unknown>;
  const shape: Record<string, unknown> = {};
  const detailText = textOf(detail);
  if (detailText) shape.detail = detailText;
  if (status >= 500) return shape;
  const descriptionText = textOf(description);
  if (descriptionText) shape.description = descriptionText;
  if (errors && typeof errors === "object" && !Array.isArray(errors)) {
    const entries = Object.entries(errors).slice(-MAX_FIELD_ERRORS);
    const texts = entries.map(([field, value]) => [field, textOf(value)] as const);
    shape.errors = texts.at(-1)?.[1] ? Object.fromEntries(texts.filter((entry) => entry[1] !== undefined)) : {};
  }
  return shape;
}

// What of an upstream's failed answer reaches the browser: requirements 8's fields of a 4xx, as text; nothing of a 5xx.

/** Only requirements 8's fields of a 4xx pass to the browser, as text; a 5xx's own words never do. */
export function errorShape(status: number, body: unknown): Record<string, unknown> {
  if (status >= 500 || !body || typeof body !== "object") return {};
  const { detail, description, errors } = body as Record<string, unknown>;
  const shape: Record<string, unknown> = {};
  if (typeof detail === "string") shape.detail = detail.slice(0, 500);
  if (typeof description === "string") shape.description = description.slice(0, 500);
  if (errors && typeof errors === "object" && !Array.isArray(errors)) {
    const texts = Object.entries(errors).filter((entry): entry is [string, string] => typeof entry[1] === "string");
    if (texts.length > 0) shape.errors = Object.fromEntries(texts.slice(0, 50).map(([k, v]) => [k, v.slice(0, 500)]));
  }
  return shape;
}

// One input rule for the names a person types to sign in or reset a password (the company short name, the user ID, the
// e-mail address): surrounding white space is not part of them, whether they come from a form without script, an
// island or a direct `/api` call, so one typing names one account everywhere (requirements 11.2).

/** The request fields of openapi/portal.yaml's sign-in and reset bodies that name an account. */
const NAME_FIELDS = ["shortname", "username", "clientShortName", "emailAddress"] as const;

/** The body with each name field that is a string trimmed; any other body, or field, as it came. */
export function trimNames(body: unknown): unknown {
  if (!body || typeof body !== "object" || Array.isArray(body)) return body;
  const fields = body as Record<string, unknown>;
  if (!NAME_FIELDS.some((name) => typeof fields[name] === "string")) return body;
  const trimmed = { ...fields };
  for (const name of NAME_FIELDS) {
    const value = fields[name];
    if (typeof value === "string") trimmed[name] = value.trim();
  }
  return trimmed;
}

// One input rule for the fields a person types to sign in, reset or change a password (the company short name, the
// user ID, the e-mail address, a password): surrounding white space is not part of a name, a required name of only
// blanks is refused as requirements 5's "is required.", and a field longer than the upstream takes is refused by its
// name, whether it comes from a form without script, an island or a direct `/api` call, so one typing names one account
// everywhere (requirements 11.2) and is refused in the same words.
import { loginTexts } from "#web/texts/login-screen.ts";
import { resetTexts } from "#web/texts/reset.ts";

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

/**
 * The names the bodies require, with the words the forms say when one is empty (web/sign-in-checks.ts,
 * web/reset-checks.ts), in the forms' order. The reset's company is not among them: a vendor's reset sends it empty.
 */
const requiredTexts = {
  shortname: loginTexts.companyRequired,
  username: loginTexts.userIdRequired,
  emailAddress: resetTexts.emailRequired,
} as const;

/** The words for the first required name of `body` that is empty once trimmed ("User ID is required."), or undefined. */
export function missingName(body: unknown): string | undefined {
  if (!body || typeof body !== "object" || Array.isArray(body)) return undefined;
  const fields = body as Record<string, unknown>;
  const field = (Object.keys(requiredTexts) as (keyof typeof requiredTexts)[]).find((name) => {
    const value = fields[name];
    return typeof value === "string" && value.trim() === "";
  });
  return field && requiredTexts[field];
}

/** The most characters each typed field may have (a name's once trimmed): openapi/portal.yaml's `maxLength`. */
export const TYPED_LIMITS = {
  shortname: 64,
  username: 128,
  clientShortName: 64,
  emailAddress: 254,
  userId: 128,
  password: 256,
} as const;
type TypedField = keyof typeof TYPED_LIMITS;

/** What each says when it is longer, in the words of the screen it is typed on; in the forms' order. */
const tooLongTexts: Record<TypedField, string> = {
  shortname: loginTexts.companyTooLong,
  username: loginTexts.userIdTooLong,
  clientShortName: resetTexts.companyTooLong,
  emailAddress: resetTexts.emailTooLong,
  userId: loginTexts.userIdTooLong,
  password: loginTexts.passwordTooLong,
};

const tooLong = (field: TypedField, value: unknown): boolean =>
  typeof value === "string" && (field === "password" ? value : value.trim()).length > TYPED_LIMITS[field];

/** The words for the first field of `body` longer than it may be ("User ID is too long."); undefined when none is. */
export function tooLongField(body: unknown): string | undefined {
  if (!body || typeof body !== "object" || Array.isArray(body)) return undefined;
  const fields = body as Record<string, unknown>;
  const field = (Object.keys(tooLongTexts) as TypedField[]).find((name) => tooLong(name, fields[name]));
  return field && tooLongTexts[field];
}

/** A value as typed, kept for the form sent back; one longer than it may be is not (it would not fit the cookie). */
export const keptTyped = (field: TypedField, value: string): string => (tooLong(field, value) ? "" : value);

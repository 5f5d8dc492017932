// What the portal answers in place of upstream answers that carry a token: the token stays in the session.
import type { components } from "#openapi/schema.ts";
import type { LoginMessage } from "#web/site.ts";

/** A refused MFA code's verdict, as the portal answers it: how many more codes this sign-in may try. */
export type CountedVerdict = components["schemas"]["MfaVerdict"][number] & { attemptsLeft?: number };

/**
 * An upstream answer with its `token` kept by the portal and replaced by whether one is held, and its `message` only
 * when it is one the portal knows and came with a token (server/actions/effects.ts `signInAnswer`).
 */
export type Held<T> = Omit<T, "token" | "message"> & { tokenHeld: boolean; message?: LoginMessage };
export type HeldLogin = Held<components["schemas"]["LoginResponse"]>;
export type HeldLinkLogin = Held<components["schemas"]["LinkLoginResponse"]>;

/** Token-carrying answers are typed by the upstream spec; the portal's replacement is checked here at run time. */
export function asHeld<T extends object>(data: T | undefined): Held<T> | undefined {
  if (!data || typeof (data as { tokenHeld?: unknown }).tokenHeld !== "boolean") return undefined;
  return data as unknown as Held<T>;
}

/**
 * The portal's answer to an MFA code, read one way by the island and the plain form: whether it passed, and how many
 * tries the sign-in has left when the portal says (docs/decisions.md, "attemptsLeft").
 */
export function readVerdict(data: unknown): { passed: boolean; attemptsLeft?: number } {
  const first: unknown = Array.isArray(data) ? data[0] : undefined;
  if (!first || typeof first !== "object") return { passed: false };
  const { text, attemptsLeft } = first as { text?: unknown; attemptsLeft?: unknown };
  const counted = typeof attemptsLeft === "number" && Number.isInteger(attemptsLeft) && attemptsLeft >= 0;
  return { passed: text === "Passed", ...(counted ? { attemptsLeft } : {}) };
}

// What the portal answers in place of upstream answers that carry a token: the token stays in the session.
import type { components } from "#openapi/schema.d.ts";

/** A refused MFA code's verdict, as the portal answers it: how many more codes this sign-in may try. */
export type CountedVerdict = components["schemas"]["MfaVerdict"][number] & { attemptsLeft?: number };

/** An upstream answer with its `token` kept by the portal and replaced by whether one is held. */
export type Held<T> = Omit<T, "token"> & { tokenHeld: boolean };
export type HeldLogin = Held<components["schemas"]["LoginResponse"]>;
export type HeldLinkLogin = Held<components["schemas"]["LinkLoginResponse"]>;

/** Token-carrying answers are typed by the upstream spec; the portal's replacement is checked here at run time. */
export function asHeld<T extends object>(data: T | undefined): Held<T> | undefined {
  if (!data || typeof (data as { tokenHeld?: unknown }).tokenHeld !== "boolean") return undefined;
  return data as unknown as Held<T>;
}

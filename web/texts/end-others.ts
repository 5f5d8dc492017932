// The words a password change uses about the other sessions: kept apart from the account texts, so that the
// change-password form's chunk carries only these.
import { counted } from "#web/texts/plural.ts";

export const endOthersTexts = {
  checkbox: "Sign out of other devices",
  ended: (count: number) =>
    count === 0
      ? "No other session was signed in."
      : `${counted(count, "other session was", "other sessions were")} signed out.`,
  /** The shared store could not be reached: what this server knew ended now, the rest as soon as it returns. */
  ending: (count: number) =>
    `${count === 0 ? "No other session was signed out yet" : `${counted(count, "other session was", "other sessions were")} signed out`}. Signing out of your other devices is still on its way: they will be signed out within a few minutes, as soon as every server of the portal can be reached. Nothing more needs to be done.`,
};

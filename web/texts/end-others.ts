// The words a password change uses about the other sessions: kept apart from the account texts, so that the
// change-password form's chunk carries only these.
import { counted } from "#web/texts/plural.ts";

export const endOthersTexts = {
  checkbox: "Sign out of other devices",
  ended: (count: number) =>
    count === 0
      ? "No other session was signed in."
      : `${counted(count, "other session was", "other sessions were")} signed out.`,
};

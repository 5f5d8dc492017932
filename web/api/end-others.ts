// The headers of a password change that ends the other sessions: apart from held.ts, which the login page ships.
import { endOthersTexts } from "#web/texts/end-others.ts";

/** Sent with a password change when "Sign out of other devices" is checked; the answer says how many ended. */
export const END_OTHERS_HEADER = "X-Portal-End-Other-Sessions";
export const ENDED_COUNT_HEADER = "x-portal-sessions-ended";
/** "1" beside the count when the ending is still on its way to other servers (the shared store could not be reached). */
export const ENDING_HEADER = "x-portal-sessions-ending";

/**
 * What a password change's answer says of the other sessions, read one way by the island and the plain form: how many
 * ended, or that the ending is still on its way; undefined when it says nothing (none was asked to end).
 */
export function sessionsEndedNote(header: (name: string) => string | null | undefined): string | undefined {
  const ended = Number(header(ENDED_COUNT_HEADER) ?? "");
  if (header(ENDED_COUNT_HEADER) == null || !Number.isSafeInteger(ended)) return undefined;
  return header(ENDING_HEADER) === "1" ? endOthersTexts.ending(ended) : endOthersTexts.ended(ended);
}

// The headers of a password change that ends the other sessions: apart from held.ts, which the login page ships.

/** Sent with a password change when "Sign out of other devices" is checked; the answer says how many ended. */
export const END_OTHERS_HEADER = "X-Portal-End-Other-Sessions";
export const ENDED_COUNT_HEADER = "x-portal-sessions-ended";
/** "1" beside the count when the ending is still on its way to other servers (the shared store could not be reached). */
export const ENDING_HEADER = "x-portal-sessions-ending";

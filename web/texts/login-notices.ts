// Texts the server writes around the login island, not in it: kept out of the island's chunk.
export const loginNotices = {
  /** The portal opened over plain http at an address other than localhost. */
  plainHttp:
    "This page was opened over plain http, so your browser will not keep the sign-in. Open the portal's https address, or http://localhost on this machine.",
  /** Above the login form when a signed-out person's deep link was kept: where the sign-in leads. */
  continueTo: (title: string) => `Sign in to continue to ${title}`,
} as const;

// The pages the benches view signed in, and a signed-in view of them as a browser makes it: with the cookie the
// portal set last (autocannon never stores one).

import type { PortalClient } from "#harness/portal-client.ts";
import type { Target } from "#scripts/bench/load.ts";
import type { Server } from "#scripts/bench/processes.ts";

export const GATED_PAGE = "/client/invoice/entry"; // requirements 2.8, gate notViewOnly
export const OTHER_PAGE = "/client/home";

/**
 * A cookie whose last tracked page is `page`, fresh for a round (its "last seen" is now, written with the visit),
 * so the page's requests are repeat views: no visit recorded, no cookie written. A browser keeps the cookie it is
 * given; autocannon does not, so without this a cookie more than a minute old would be written again on every request.
 */
export const cookieAfterVisiting = (client: PortalClient, page: string) => async () => {
  await client.get(OTHER_PAGE === page ? GATED_PAGE : OTHER_PAGE);
  await client.get(page);
  return { cookie: client.cookieHeader };
};

/** The gated page of a portal as a repeat view. */
export const gatedPageOf = (label: string, portal: Server, client: PortalClient): Target => ({
  label,
  url: `${portal.url}${GATED_PAGE}`,
  pid: portal.pid,
  prepare: cookieAfterVisiting(client, GATED_PAGE),
});

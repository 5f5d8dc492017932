// The pages the benches view signed in, and a signed-in view of them as a browser makes it: with the cookie the
// portal set last (autocannon never stores one).

import type { PortalClient } from "#harness/portal-client.ts";
import { accounts, fakeUpstreamCode, signIn } from "#harness/sign-in.ts";
import type { Target } from "#scripts/bench/load.ts";
import type { Server } from "#scripts/bench/processes.ts";
import { visitsSent } from "#scripts/bench/visits.ts";

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

/** The visitors: one signed-in session (and upstream token) per connection of the load. */
const VISITORS = 100;

/**
 * The gated page viewed by the visitors of a portal, each with a session (and upstream token) of their own: as a new
 * visit every time, and as a repeat view. A round is over once the portal has sent every visit it queued.
 */
export async function visitorsOf(
  portal: Server,
  metricsToken: string,
): Promise<{ everyViewAVisit: Target; repeatViews: Target }> {
  // Many visitors, each with a session and token of their own, as in life: one session's visits are sent one after
  // another, so a single cookie would measure a queue. Each a person of their own too: one person keeps at most 20
  // sessions, a newer sign-in ending the oldest.
  const visitors = await Promise.all(
    Array.from({ length: VISITORS }, (_, index) =>
      signIn(portal.url, { ...accounts.alice, username: `visitor-${index}` }, fakeUpstreamCode),
    ),
  );
  const allSent = () => visitsSent(portal.url, metricsToken);
  const visitorsAfter = (lastPage: string) => async () => {
    const cookies = await Promise.all(visitors.map((visitor) => cookieAfterVisiting(visitor, lastPage)()));
    await allSent();
    return cookies;
  };
  const page = { url: `${portal.url}${GATED_PAGE}`, pid: portal.pid, settle: allSent };
  // Each cookie's last page is another one, and the load never stores the new cookie: every request is a visit to
  // record (the worst case; a browser records only a change of page).
  return {
    everyViewAVisit: { ...page, label: "every view a visit", prepare: visitorsAfter(OTHER_PAGE) },
    repeatViews: { ...page, label: "repeat views", prepare: visitorsAfter(GATED_PAGE) },
  };
}

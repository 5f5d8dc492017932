// Benchmarks 3 and 3b: page tracking (requirements 4.8), one upstream call per recorded visit. 3b is the latency a
// visit adds to a page at a fixed rate the workload holds; 3 is what a recorded visit costs the portal beside the bare
// call it makes. Both come from the same rounds: the page viewed by 100 visitors, every view a visit, and the same
// page and visitors viewed again (no visit).

import { accounts, fakeUpstreamCode, signIn } from "#harness/sign-in.ts";
import { alone, type LoadOptions, type Side, sideBySide, sideOf, type Target } from "#scripts/bench/load.ts";
import { cookieAfterVisiting, GATED_PAGE, OTHER_PAGE } from "#scripts/bench/page-views.ts";
import { runScript, type Server } from "#scripts/bench/processes.ts";
import { type Row, ratioRow } from "#scripts/bench/report.ts";
import { visitsSent } from "#scripts/bench/visits.ts";

/** The visitors: one signed-in session (and upstream token) per connection of the load. */
const VISITORS = 100;

export type TrackingServers = {
  upstream: Server;
  portal: Server;
  /** A token the upstream issued: the bare visit carries one of the same size as a visitor's. */
  token: string;
  /** The portal's /metrics token: a round ends once the visits it queued have been sent. */
  metricsToken: string;
};

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

export async function trackingBenches(servers: TrackingServers, options: LoadOptions): Promise<Row[]> {
  const { everyViewAVisit, repeatViews } = await visitorsOf(servers.portal, servers.metricsToken);

  // The rate is half of what the visits' own workload holds (as fast as the portal answers, a visitor per connection),
  // so neither side is full: the latency a visit adds when the portal keeps up, not the length of a queue.
  const capacity = await alone(everyViewAVisit, options);
  const rate = Math.max(1, Math.round(capacity.requestsPerSecond / 2));
  const tracking = await sideBySide({ ...everyViewAVisit, rate }, { ...repeatViews, rate }, options);
  const [visits, repeats] = tracking;
  const visit: Side = {
    ...visits,
    label: "a recorded visit",
    cpuMicrosPerRequest: visits.cpuMicrosPerRequest - repeats.cpuMicrosPerRequest,
  };
  return [
    ratioRow(
      "3. Tracking: CPU per recorded visit in the portal ÷ one bare undici request of the same POST /web/track to the same upstream",
      [visit, await bareVisit(servers, options)],
      "cpu",
      { atMost: 2 },
      "a page with a visit less a repeat view, in row 3b's rounds: the call, its typed client and queue, the previous page's cookie",
    ),
    ratioRow(
      `3b. Tracking: page latency p99 at ${rate.toLocaleString("en")} req/s (half of the ${Math.round(capacity.requestsPerSecond).toLocaleString("en")} req/s every view a visit holds), ${VISITORS} visitors, every view a new visit ÷ repeat views`,
      tracking,
      "p99",
      { atMost: 1.25 },
    ),
  ];
}

/** The bare call's figures from its own process (`scripts/bench/bare-visit.ts`), its rounds as long as the load's. */
async function bareVisit({ upstream, token }: TrackingServers, options: LoadOptions): Promise<Side> {
  const printed = await runScript("scripts/bench/bare-visit.ts", {
    NODE_ENV: "production",
    UPSTREAM_URL: upstream.url,
    UPSTREAM_TOKEN: token,
    TRACK_PAGE: GATED_PAGE,
    ROUNDS: String(options.rounds),
    SECONDS: String(options.seconds),
    WARMUP_SECONDS: String(options.warmupSeconds),
  });
  return sideOf("bare undici request", JSON.parse(printed));
}

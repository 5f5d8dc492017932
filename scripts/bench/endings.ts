// Row 10d (issue 30's row 10): ending a person's 20 sessions, and signing in, in CPU beside a signed-in page view. A new
// person signs in 20 times (the most a person keeps, server/account/sessions.ts), a cookie each, timed: a sign-in is
// password and code, as harness/sign-in.ts does it, checked at each step. Then the newest of the 20 ends the other 19,
// (a) by "Sign out of all other devices", the account page's form (it tests the current password itself), or (b) by a
// password change asking to end them, the /api call with its password tested first (as the form does). Each ending
// must answer as a success and leave, in the ledger, 19 sessions ended for its reason and one live. Requests are
// injected and timed as row 10's (scripts/bench/routes.ts), beside the same page view in the same rounds.
import { randomBytes } from "node:crypto";
import type { PortalClient } from "#harness/portal-client.ts";
import { accounts, DEMO_PASSWORD, fakeUpstreamCode, signIn } from "#harness/sign-in.ts";
import { GATED_PAGE } from "#scripts/bench/page-views.ts";
import { startUpstream } from "#scripts/bench/portal.ts";
import { type Row, ratioRow } from "#scripts/bench/report.ts";
import { GOAL, injected, type Kind, measure, NEW_PASSWORD, portalWithRoutes, side } from "#scripts/bench/routes.ts";
import { median } from "#scripts/bench/stats.ts";
import { allVisitsSent } from "#scripts/bench/visits.ts";
import { personOf } from "#server/account/person.ts";
import { SESSIONS_PER_PERSON } from "#server/account/sessions.ts";
import { END_SESSIONS_PATH } from "#server/loaders/account-view.ts";
import { END_OTHERS_HEADER } from "#web/api/end-others.ts";
import type { EndReason } from "#web/protocol/session-end.ts";

/** `endings`: people per batch of endings, each signed in 20 times; `batch`: page views per reference batch. */
export type EndingBenchOptions = { rounds: number; batch: number; endings: number };

type Ending = { label: string; kind: Kind; status: number; reason: EndReason; headers?: Record<string, string> };
const site = "client";
const signedInPost = { method: "POST", standing: "signed-in", site } as const;
const post = (url: string, body: Record<string, string>): Kind => ({ ...signedInPost, name: `POST ${url}`, url, body });
const endings: Ending[] = [
  {
    label: "(a) Sign out of all other devices",
    kind: post(END_SESSIONS_PATH, { session: "all", password: DEMO_PASSWORD, return: "/client/users/change-password" }),
    status: 303,
    reason: "ended-elsewhere",
  },
  {
    label: "(b) a password change ending the others",
    kind: post(`/api/web/${site}/password/change`, { password: NEW_PASSWORD }),
    status: 200,
    reason: "password-changed",
    headers: { [END_OTHERS_HEADER.toLowerCase()]: "1" },
  },
];
const pageView: Kind = { name: `GET ${GATED_PAGE}`, method: "GET", url: GATED_PAGE, standing: "signed-in", site };

export async function endingBenches(options: EndingBenchOptions): Promise<Row[]> {
  const upstream = await startUpstream();
  const metricsToken = randomBytes(24).toString("hex");
  const { app } = await portalWithRoutes(upstream.url, metricsToken);
  try {
    const readMetrics = async () =>
      (await app.inject({ url: "/metrics", headers: { authorization: `Bearer ${metricsToken}` } })).body;
    let people = 0;
    const viewer = await signIn(app, { ...accounts.alice, username: "bench-viewer" }, fakeUpstreamCode);
    /** CPU and wall time per request (µs), one figure per batch, per side. */
    const figures = new Map<string, { cpu: number[]; wall: number[] }>();
    const keep = (name: string, micros: number, seconds: number, count: number) => {
      const kept = figures.get(name) ?? { cpu: [], wall: [] };
      kept.cpu.push(micros / count);
      kept.wall.push((seconds * 1_000_000) / count);
      figures.set(name, kept);
    };
    const pageViews = async (size: number, record: boolean) => {
      await viewer.get(GATED_PAGE); // the batch's views are repeat views, with the cookie this one left
      const requests = Array.from({ length: size }, () => injected(pageView, viewer.cookieHeader, metricsToken));
      await allVisitsSent(readMetrics);
      const batch = await measure(app, requests, pageView.name);
      if (record) keep(pageView.name, batch.micros, batch.seconds, size);
    };
    /** A new person signed in 20 times, the sign-ins timed; answers the person and their newest session. */
    const twentySessions = async (record: boolean) => {
      const person = { ...accounts.alice, username: `bench-${people++}` };
      await allVisitsSent(readMetrics);
      const before = process.cpuUsage();
      const started = performance.now();
      const browsers: PortalClient[] = [];
      for (let index = 0; index < SESSIONS_PER_PERSON; index++)
        browsers.push(await signIn(app, person, fakeUpstreamCode));
      await new Promise((resolve) => setImmediate(resolve));
      const { user, system } = process.cpuUsage(before);
      const seconds = (performance.now() - started) / 1000;
      if (record) keep("sign-in", user + system, seconds, SESSIONS_PER_PERSON);
      const key = personOf({ site, company: person.shortname, userName: person.username });
      return { person: key, userName: person.username, newest: browsers.at(-1) as PortalClient };
    };
    const round = async (size: number, count: number, record: boolean) => {
      await pageViews(size, record);
      for (const ending of endings) {
        const acting: { person: string; cookie: string }[] = [];
        for (let index = 0; index < count; index++) {
          const { person, userName, newest } = await twentySessions(record);
          // The change needs a passed test, called first as the change's form and island do.
          if (ending.reason === "password-changed")
            await newest.post(`/api/web/${site}/password/test`, { userId: userName, password: DEMO_PASSWORD });
          acting.push({ person, cookie: newest.cookieHeader });
        }
        const requests = acting.map(({ cookie }) => {
          const request = injected(ending.kind, cookie, metricsToken);
          return { ...request, headers: { ...request.headers, ...ending.headers } };
        });
        await allVisitsSent(readMetrics);
        const batch = await measure(app, requests, ending.kind.name);
        // A refused request ends nothing: every answer must be the success, and the ledger must say what it ended.
        const refused = batch.statuses.filter((status) => status !== ending.status);
        if (refused.length > 0) throw new Error(`${ending.kind.name}: answered ${refused.join(", ")}`);
        for (const { person } of acting) {
          const { sessions } = await app.ledger.of(person);
          const ended = sessions.filter(([, record]) => record.ended?.reason === ending.reason).length;
          const live = sessions.filter(([, record]) => !record.ended).length;
          if (ended !== SESSIONS_PER_PERSON - 1 || live !== 1)
            throw new Error(`${ending.kind.name}: ${ended} sessions ended, ${live} live, of ${sessions.length}`);
        }
        if (record) keep(ending.label, batch.micros, batch.seconds, count);
        await pageViews(size, record);
      }
    };
    await round(Math.max(5, Math.round(options.batch / 5)), 1, false);
    for (let index = 0; index < options.rounds; index++) await round(options.batch, options.endings, true);

    const sideOf = (name: string, label = name) => {
      const { cpu, wall } = figures.get(name) ?? { cpu: [], wall: [] };
      return side(label, median(cpu), median(wall));
    };
    const reference = sideOf(pageView.name, `signed-in page view ${GATED_PAGE}`);
    const title = (what: string) => `10d. ${what} ÷ a signed-in section page view (CPU, injected)`;
    return [
      ...endings.map((ending) =>
        ratioRow(
          title(`Ending 20 sessions, ${ending.label}: CPU of the request that ends the other 19`),
          [sideOf(ending.label, `${ending.kind.name}${ending.headers ? ` (${END_OTHERS_HEADER})` : ""}`), reference],
          "cpu",
          { atMost: GOAL },
          `each ended ${SESSIONS_PER_PERSON - 1} (the ledger's count)`,
        ),
      ),
      ratioRow(
        title("(c) Sign-in: CPU of a full sign-in (password, code: its three calls)"),
        [sideOf("sign-in", "password, MFA generate, MFA validate"), reference],
        "cpu",
        { atMost: GOAL },
      ),
    ];
  } finally {
    await app.close();
    await upstream.stop();
  }
}

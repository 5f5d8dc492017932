// Benchmark 10 (issue 30): the costliest request of every route the portal has, in CPU, beside a signed-in page view.
// The routes are the app's own. The bench builds the portal in its own process and lists every route Fastify registers
// (an `onRoute` hook set through Fastify's "fastify.initialization" channel, as server/plugins/tracing.ts sets its
// own), and expands the routes that stand for many: the forms' `POST` into a row of each kind of screen (they answer
// by screen), `/assets/*` into every built file,
// `/pdfs/:fileName` into every document the table names. Each is asked as a browser asks it, in the standing its own
// rule names (an /api operation's row in server/actions/rules.ts; a page's section; anything else signed in), and its CPU
// read with `process.cpuUsage` around a batch of injected requests; a request that changes its session (a POST that
// needs one) gets a session of its own, prepared before the batch. Every request must be answered below 500.
import { randomBytes, randomUUID } from "node:crypto";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { createWriteStream, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { finished } from "node:stream/promises";
import type { FastifyInstance, InjectOptions, RouteOptions } from "fastify";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, DEMO_PASSWORD, FAKE_UPSTREAM_CODE, fakeUpstreamCode, signIn } from "#harness/sign-in.ts";
import type { Side } from "#scripts/bench/load.ts";
import { GATED_PAGE } from "#scripts/bench/page-views.ts";
import { startUpstream } from "#scripts/bench/portal.ts";
import { type Row, ratioRow } from "#scripts/bench/report.ts";
import { median } from "#scripts/bench/stats.ts";
import { allVisitsSent } from "#scripts/bench/visits.ts";
import { easilyGuessed } from "#server/actions/common-passwords.ts";
import { rules } from "#server/actions/rules.ts";
import { buildApp } from "#server/app.ts";
import { loadConfig } from "#server/config.ts";
import { loggerOptions } from "#server/plugins/logging.ts";
import { loadOperations, type Operation, routerPath } from "#server/upstream/operations.ts";
import { CSRF_HEADER } from "#web/protocol/headers.ts";
import type { RouteEntry } from "#web/routes/row.ts";
import { routes as pageTable, sectionAudience } from "#web/routes/table.ts";
import type { Site } from "#web/site.ts";

/**
 * `only` keeps the kinds whose name it matches (row 10b: the password change) and names the row; the estimate of a new
 * password's strength is then timed alone beside the same page view (row 10c).
 */
export type RouteBenchOptions = {
  rounds: number;
  batch: number;
  freshBatch: number;
  only?: { pattern: RegExp; title: string };
};

/** A signed-in page view is the unit; no route's request may cost more than this many of them. */
export const GOAL = 5;

type Standing = "none" | "pending" | "signed-in";
type Method = "GET" | "POST";

/** One request kind: a route, or one row of a route that stands for many. */
export type Kind = {
  name: string;
  method: Method;
  url: string;
  standing: Standing;
  site: Site;
  body?: Record<string, string>;
};

type Schema = { properties?: Record<string, { format?: string }>; required?: string[] };
type Listed = Pick<RouteOptions, "method" | "url" | "config" | "schema">;

/** A new password the portal's rules and strength estimate accept. */
export const NEW_PASSWORD = "Tangerine-Harbour-Lamp-42";
const ASSETS = new URL("../../dist/assets/", import.meta.url);

/** The portal in this process, and every route it registered, read once the app is ready. */
export async function portalWithRoutes(upstreamUrl: string, metricsToken: string) {
  const listed: Listed[] = [];
  // The hook sees the route's options object: what later hooks set on it (an /api operation's id) is read after.
  const onInit = (message: unknown) => {
    (message as { fastify: FastifyInstance }).fastify.addHook("onRoute", (route) => void listed.push(route));
  };
  subscribe("fastify.initialization", onInit);
  try {
    const config = loadConfig(
      {
        NODE_ENV: "production",
        UPSTREAM_URL: upstreamUrl,
        SESSION_KEY: randomBytes(32).toString("hex"),
        PUBLIC_URL: "http://localhost",
        METRICS_TOKEN: metricsToken,
        // As the other rows: one bench user sends more than a person in a day; each call still takes its attempt.
        RATE_LIMIT_IP_PER_MINUTE: "100000000",
        RATE_LIMIT_USER_PER_MINUTE: "100000000",
      },
      () => {},
    );
    const app = await buildApp({
      config,
      upstreamUrl,
      logger: loggerOptions(config.logLevel, createWriteStream("/dev/null")),
    });
    await app.ready();
    return { app, listed };
  } finally {
    unsubscribe("fastify.initialization", onInit);
  }
}

/** A form field or JSON property, as the bench's person fills it in; undefined: left out. */
function filledIn(name: string, site: Site, username: string): string | undefined {
  const values: Record<string, string> = {
    shortname: "ACME",
    shortName: "ACME",
    clientShortName: "ACME",
    username,
    userName: username,
    userId: username,
    password: DEMO_PASSWORD,
    current: DEMO_PASSWORD,
    next: NEW_PASSWORD,
    confirm: NEW_PASSWORD,
    emailAddress: `${username}@acme.example`,
    code: FAKE_UPSTREAM_CODE,
    site,
    return: `/${site}/home`,
    session: "all",
    page: GATED_PAGE,
  };
  return values[name];
}

/** The fields of a body schema the person fills in (and any other it requires, with a placeholder). */
function bodyOf(schema: Schema | undefined, site: Site, username: string): Record<string, string> | undefined {
  if (!schema?.properties) return undefined;
  const body: Record<string, string> = {};
  for (const name of Object.keys(schema.properties)) {
    const value = filledIn(name, site, username) ?? (schema.required?.includes(name) ? "bench" : undefined);
    if (value !== undefined) body[name] = value;
  }
  return body;
}

/** A query the route requires (a link sign-in's uuid), made from its schema. */
function queryOf(schema: Schema | undefined): string {
  const names = schema?.required ?? [];
  const pairs = names.map((name) => [name, schema?.properties?.[name]?.format === "uuid" ? randomUUID() : "1"]);
  return pairs.length > 0 ? `?${new URLSearchParams(pairs).toString()}` : "";
}

/** A route's pattern with its parameters filled in: the session's site, the upstream's code, "1" for the rest. */
const filled = (url: string, site: Site) =>
  url
    .replace(/:(site|audience)\b/g, site)
    .replace(/:code\b/g, FAKE_UPSTREAM_CODE)
    .replace(/:\w+/g, "1")
    .replace(/\*$/, "no-such-path");

const rowSite = (row: RouteEntry): Site => (row.section === "public" ? "client" : sectionAudience[row.section]);

const isMethod = (method: string): method is Method => method === "GET" || method === "POST";

/** Every request kind of the portal, from the routes it registered. */
function kindsOf(listed: Listed[], operations: Map<string, Operation>): Kind[] {
  const kinds: Kind[] = [];
  const seen = new Set<string>();
  for (const route of listed) {
    for (const method of [route.method].flat()) {
      // HEAD is GET's own handler; the /api catch-all's other methods are answered as its GET and POST are.
      if (!isMethod(method)) continue;
      const key = `${method} ${route.url}`;
      if (seen.has(key)) continue;
      seen.add(key);
      kinds.push(...expand(method, route, operations));
    }
  }
  return kinds;
}

/** The page rows by their path, and one row of each kind of screen (the forms answer by their page's screen). */
const rowByPath = new Map(pageTable.map((row) => [row.path, row]));
const firstOfScreen = new Set([...new Map(pageTable.map((row) => [row.screen, row])).values()]);

function expand(method: Method, route: Listed, operations: Map<string, Operation>): Kind[] {
  const url = route.url ?? "/";
  const row = rowByPath.get(url);
  if (row && method === "GET")
    return [
      {
        name: `GET ${row.path}`,
        method,
        url: filled(row.path, rowSite(row)),
        standing: row.section === "public" ? "none" : "signed-in",
        site: rowSite(row),
      },
    ];
  if (row && method === "POST") {
    if (!firstOfScreen.has(row)) return [];
    const schema = route.schema as { body?: Schema } | undefined;
    return [
      {
        name: `POST ${row.path} (${row.screen})`,
        method,
        url: filled(row.path, rowSite(row)),
        standing: row.screen === "mfa" ? "pending" : row.section === "public" ? "none" : "signed-in",
        site: rowSite(row),
        body: bodyOf(schema?.body, rowSite(row), "bench"),
      },
    ];
  }
  if (url === "/assets/*")
    return readdirSync(ASSETS)
      .filter((file) => !/\.(br|gz)$/.test(file))
      .map((file) => ({
        name: `GET /assets/${file}`,
        method,
        url: `/assets/${file}`,
        standing: "none",
        site: "client",
      }));
  if (url === "/pdfs/:fileName") {
    const files = [...new Set(pageTable.flatMap((row) => (row.pdf && row.section !== "public" ? [row] : [])))];
    const bySite = new Map(files.map((row) => [row.pdf, rowSite(row)]));
    return [...bySite].map(([file, site]) => ({
      name: `${method} /pdfs/${file}`,
      method,
      url: `/pdfs/${file}`,
      standing: "signed-in",
      site,
    }));
  }
  // An /api route is its operation's: its input is the operation's, as openapi/portal.yaml declares it.
  const operation = operations.get(`${method} ${url}`);
  const schema = operation
    ? { body: operation.body as Schema | undefined, querystring: operation.query as Schema | undefined }
    : (route.schema as { body?: Schema; querystring?: Schema } | undefined);
  const rule = operation ? rules[operation.operationId] : undefined;
  const needs = rule && "needs" in rule ? rule.needs : "signed-in";
  const site: Site = "client";
  return [
    {
      name: `${method} ${url}`,
      method,
      url: `${filled(url, site)}${queryOf(schema?.querystring)}`,
      standing: needs === "anyone" ? "none" : needs,
      site,
      ...(method === "POST" ? { body: bodyOf(schema?.body, site, "bench") ?? {} } : {}),
    },
  ];
}

/** The request as a browser sends it: the islands' header on /api, a form elsewhere; the metrics token on GETs. */
export function injected(kind: Kind, cookie: string, metricsToken: string): InjectOptions {
  const api = kind.url.startsWith("/api/");
  const headers: Record<string, string> = {
    ...(cookie ? { cookie } : {}),
    ...(api ? { [CSRF_HEADER.toLowerCase()]: "1" } : {}),
    // Prometheus's scrape: no other route reads it.
    ...(kind.method === "GET" ? { authorization: `Bearer ${metricsToken}` } : {}),
    "accept-encoding": "br, gzip",
  };
  if (kind.method === "GET" || kind.body === undefined) return { method: kind.method, url: kind.url, headers };
  return api
    ? { method: "POST", url: kind.url, headers, payload: kind.body }
    : {
        method: "POST",
        url: kind.url,
        headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams(kind.body).toString(),
      };
}

type Batch = { micros: number; seconds: number; statuses: number[] };

export async function measure(app: FastifyInstance, requests: InjectOptions[], name: string): Promise<Batch> {
  const statuses: number[] = [];
  const before = process.cpuUsage();
  const started = performance.now();
  for (const request of requests) {
    // The answer read as a socket would take it, chunk by chunk: collected whole as a string (inject's default), a
    // 500 KB image cost ten times what sending it does.
    const answer = await app.inject({ ...request, payloadAsStream: true });
    await finished(answer.stream().resume());
    statuses.push(answer.statusCode);
  }
  // Work a request left for after its answer (a visit's call) runs now, inside the batch.
  await new Promise((resolve) => setImmediate(resolve));
  const { user, system } = process.cpuUsage(before);
  const failed = statuses.filter((status) => status >= 500);
  if (failed.length > 0) throw new Error(`${name}: ${failed.length} answers of ${failed[0]} in a batch`);
  return { micros: user + system, seconds: (performance.now() - started) / 1000, statuses };
}

/** One request at a time, in this process: the rate is what one after another came to, not a load's. */
export const side = (label: string, micros: number, wall = micros): Side => ({
  label,
  cpuMicrosPerRequest: micros,
  requestsPerSecond: 1_000_000 / wall,
});

/** Row 10c: the check of a new password against the easily guessed ones, alone, in page views of this run. */
function estimateRow(pageViewMicros: number): Row {
  const known = ["bench-1", "ACME"];
  const time = (count: number) => {
    const before = process.cpuUsage();
    for (let index = 0; index < count; index++) easilyGuessed(`${NEW_PASSWORD}${index % 10}`, known);
    const { user, system } = process.cpuUsage(before);
    return (user + system) / count;
  };
  time(20); // built on first use: the list is read once per process
  const micros = median([time(200), time(200), time(200)]);
  return ratioRow(
    "10c. Strength check: CPU of refusing the easily guessed passwords for one new password ÷ a signed-in section page view (CPU, injected)",
    [side("easilyGuessed, 25 characters", micros), side(`signed-in page view ${GATED_PAGE}`, pageViewMicros)],
    "cpu",
    { atMost: GOAL },
  );
}

export async function routeBenches(options: RouteBenchOptions): Promise<Row[]> {
  const upstream = await startUpstream();
  const metricsToken = randomBytes(24).toString("hex");
  const { app, listed } = await portalWithRoutes(upstream.url, metricsToken);
  try {
    const operations = new Map(
      loadOperations().map((operation) => [`${operation.method} /api${routerPath(operation.path)}`, operation]),
    );
    const kinds = kindsOf(listed, operations).filter((kind) => options.only?.pattern.test(kind.name) ?? true);
    const readMetrics = async () =>
      (await app.inject({ url: "/metrics", headers: { authorization: `Bearer ${metricsToken}` } })).body;
    let people = 0;
    const account = (site: Site) => ({
      ...(site === "vendor" ? accounts.vera : accounts.alice),
      // A person of its own each: one person keeps at most 20 sessions, a newer sign-in ending the oldest.
      username: `bench-${people++}`,
    });
    const browsers: Record<Site, PortalClient> = {
      client: await signIn(app, account("client"), fakeUpstreamCode),
      vendor: await signIn(app, account("vendor"), fakeUpstreamCode),
    };
    /** A session of its own in the standing asked, its password just tested (as a change asks first). */
    async function freshSession(standing: Standing, site: Site): Promise<string> {
      if (standing === "none") return "";
      const person = account(site);
      if (standing === "pending") {
        const browser = new PortalClient(app);
        const login = { shortname: "ACME", username: person.username, password: DEMO_PASSWORD };
        await browser.post(
          `/api/auth/${site}`,
          site === "client" ? login : { username: person.username, password: DEMO_PASSWORD },
        );
        return browser.cookieHeader;
      }
      const browser = await signIn(app, person, fakeUpstreamCode);
      await browser.post(`/api/web/${site}/password/test`, { userId: person.username, password: DEMO_PASSWORD });
      return browser.cookieHeader;
    }
    /** The batch's requests: a session of its own each where a request changes it, else the browser's, kept fresh. */
    async function requestsOf(kind: Kind, size: number): Promise<InjectOptions[]> {
      if (kind.method === "POST" && kind.standing !== "none") {
        const cookies: string[] = [];
        for (let index = 0; index < size; index++) cookies.push(await freshSession(kind.standing, kind.site));
        return cookies.map((cookie) => injected(kind, cookie, metricsToken));
      }
      let cookie = "";
      if (kind.standing !== "none") {
        // Viewed once first: the batch's views are repeat views (no visit), with the cookie this view left.
        const browser = browsers[kind.site];
        await browser.request(kind.method, kind.url);
        cookie = browser.cookieHeader;
      }
      return Array.from({ length: size }, () => injected(kind, cookie, metricsToken));
    }

    const pageView: Kind = {
      name: `GET ${GATED_PAGE}`,
      method: "GET",
      url: GATED_PAGE,
      standing: "signed-in",
      site: "client",
    };
    /** Each kind's CPU per request and wall time per request (in µs), one figure per round, and its answers. */
    const perRequest = new Map<string, { cpu: number[]; wall: number[]; statuses: Set<number> }>();
    const reference = { cpu: [] as number[], wall: [] as number[] };
    const keep = (into: { cpu: number[]; wall: number[] }, batch: Batch, count: number) => {
      into.cpu.push(batch.micros / count);
      into.wall.push((batch.seconds * 1_000_000) / count);
    };
    const rounds = async (round: number, size: number, freshSize: number) => {
      const record = round >= 0;
      const referenceBatch = async () => {
        const requests = await requestsOf(pageView, size);
        await allVisitsSent(readMetrics);
        const batch = await measure(app, requests, pageView.name);
        if (record) keep(reference, batch, size);
      };
      for (const [index, kind] of kinds.entries()) {
        if (index % 20 === 0) await referenceBatch();
        const count = kind.method === "POST" && kind.standing !== "none" ? freshSize : size;
        const requests = await requestsOf(kind, count);
        await allVisitsSent(readMetrics); // what preparing sent (a first view's visit) is not the batch's
        const batch = await measure(app, requests, kind.name);
        if (!record) continue;
        const kept = perRequest.get(kind.name) ?? { cpu: [], wall: [], statuses: new Set<number>() };
        keep(kept, batch, count);
        for (const status of batch.statuses) kept.statuses.add(status);
        perRequest.set(kind.name, kept);
      }
      await referenceBatch();
    };
    await rounds(-1, Math.max(5, Math.round(options.batch / 5)), Math.max(2, Math.round(options.freshBatch / 5)));
    for (let round = 0; round < options.rounds; round++) await rounds(round, options.batch, options.freshBatch);

    const unit = median(reference.cpu);
    const costs = [...perRequest].map(([name, { cpu, wall, statuses }]) => ({
      name,
      micros: median(cpu),
      wall: median(wall),
      statuses: [...statuses].sort(),
    }));
    costs.sort((a, b) => b.micros - a.micros);
    const out = new URL("../../artifacts/bench/", import.meta.url).pathname;
    mkdirSync(out, { recursive: true });
    writeFileSync(
      `${out}${options.only ? "password-change" : "routes"}.json`,
      `${JSON.stringify({ pageViewMicros: unit, kinds: costs.map((cost) => ({ ...cost, ratio: cost.micros / unit })) }, null, 2)}\n`,
    );
    const [worst, ...rest] = costs;
    if (!worst) throw new Error("the portal listed no route");
    const next = rest
      .slice(0, 3)
      .map((cost) => `${cost.name} ${Math.round(cost.micros)} µs`)
      .join(", ");
    const routeCount = new Set(listed.map((route) => route.url)).size;
    const estimate = options.only ? [estimateRow(unit)] : [];
    return [
      ratioRow(
        options.only?.title ??
          `10. Worst route: CPU per request of the costliest of the portal's ${routeCount} routes (${kinds.length} kinds of request) ÷ a signed-in section page view (CPU, injected)`,
        [
          side(worst.name, worst.micros, worst.wall),
          side(`signed-in page view ${GATED_PAGE}`, unit, median(reference.wall)),
        ],
        "cpu",
        { atMost: GOAL },
        `next: ${next}; every kind in artifacts/bench/${options.only ? "password-change" : "routes"}.json`,
      ),
      ...estimate,
    ];
  } finally {
    await app.close();
    await upstream.stop();
  }
}

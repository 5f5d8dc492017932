// Benchmarks 1b, 2b, 7e, 7f and 8: the /api call and a gated page beside their bare forms, the container's heap options
// and Redis, each beside its reference in one run.
import { randomBytes } from "node:crypto";
import type { PortalClient } from "#harness/portal-client.ts";
import { RedisServer } from "#harness/redis-server.ts";
import { accounts, fakeUpstreamCode, signIn } from "#harness/sign-in.ts";
import { containerNodeOptions } from "#scripts/bench/heap.ts";
import { type LoadOptions, sideBySide, type Target } from "#scripts/bench/load.ts";
import { cookieAfterVisiting, GATED_PAGE, gatedPageOf } from "#scripts/bench/page-views.ts";
import { startBuiltPortal, startUpstream } from "#scripts/bench/portal.ts";
import { freePort, type Server, startServer } from "#scripts/bench/processes.ts";
import { type Row, ratioRow } from "#scripts/bench/report.ts";

const PROXIED = "/web/client/password/test";
const PASSWORD_TEST = JSON.stringify({ userId: "alice", password: "Portal-Demo-2026!" });

type Servers = {
  upstream: Server;
  portal: Server;
  bare: Server;
  /** Started once a session is signed in: it fetches the gated page's HTML from the portal at start. */
  barePage?: Server;
  redis: RedisServer;
  /** The same build and upstream, its security stores shared through the Redis above. */
  portalOnRedis: Server;
  /** Two more of the same build and upstream, started together for row 7e: the container's heap options, and Node's. */
  portalWithHeap: Server;
  portalWithDefaults: Server;
  /** The portal's key: the bare route and the bare page open its cookie. */
  sessionKey: string;
};

async function startServers(started: Partial<Servers>): Promise<Servers> {
  const upstream = await startUpstream();
  started.upstream = upstream;
  // One key for the portal and the bare references: they open the portal's own cookie.
  const sessionKey = randomBytes(32).toString("hex");
  started.sessionKey = sessionKey;
  started.portal = await startBuiltPortal(upstream.url, { SESSION_KEY: sessionKey });
  // The token the upstream issues: the bare route carries it, as the portal's call does.
  const issued = await fetch(`${upstream.url}/auth/client`, { method: "POST" });
  const { token } = (await issued.json()) as { token: string };
  started.bare = await startServer(
    "scripts/bench/bare-route.ts",
    await freePort(),
    { NODE_ENV: "production", UPSTREAM_URL: upstream.url, UPSTREAM_TOKEN: token, SESSION_KEY: sessionKey },
    "/healthz",
  );
  started.redis = await RedisServer.start();
  started.portalOnRedis = await startBuiltPortal(upstream.url, { REDIS_URL: started.redis.url });
  started.portalWithHeap = await startBuiltPortal(upstream.url, { NODE_OPTIONS: containerNodeOptions() });
  started.portalWithDefaults = await startBuiltPortal(upstream.url, { NODE_OPTIONS: "" });
  return started as Servers;
}

/**
 * The same, then one password test: the session records a passed test (once a minute), and a browser would keep that
 * cookie for its next call, so the round's calls are the ones after it.
 */
const cookieAfterTesting = (client: PortalClient) => async () => {
  await cookieAfterVisiting(client, GATED_PAGE)();
  await client.post(`/api${PROXIED}`, JSON.parse(PASSWORD_TEST));
  return { cookie: client.cookieHeader };
};

const proxiedCall = {
  method: "POST" as const,
  body: PASSWORD_TEST,
  headers: { "content-type": "application/json" },
};

/** The proxied call through a portal, with a signed-in session's cookie (freshened before each round). */
export const apiThrough = (label: string, portal: Server, client: PortalClient): Target => ({
  label,
  prepare: cookieAfterTesting(client),
  url: `${portal.url}/api${PROXIED}`,
  pid: portal.pid,
  ...proxiedCall,
  headers: { ...proxiedCall.headers, "x-portal-request": "1" },
});

export async function throughputBenches(options: LoadOptions): Promise<Row[]> {
  const started: Partial<Servers> = {};
  try {
    const { portal, bare, sessionKey, portalOnRedis, portalWithHeap, portalWithDefaults } = await startServers(started);
    const client = await signIn(portal.url, accounts.alice, fakeUpstreamCode);
    const barePage = await startServer(
      "scripts/bench/bare-page.ts",
      await freePort(),
      {
        NODE_ENV: "production",
        SESSION_KEY: sessionKey,
        PAGE_URL: `${portal.url}${GATED_PAGE}`,
        PAGE_COOKIE: (await cookieAfterVisiting(client, GATED_PAGE)()).cookie,
      },
      "/healthz",
    );
    started.barePage = barePage;
    const redisClient = await signIn(portalOnRedis.url, accounts.alice, fakeUpstreamCode);
    const rows: Row[] = [];
    const portalApi = apiThrough("portal /api", portal, client);

    // The same call and session cookie through the thinnest proxy of the same libraries: what the portal adds.
    rows.push(
      ratioRow(
        "1b. What the portal adds: /api through the portal ÷ a bare Fastify + @fastify/secure-session route making the same openapi-fetch call (CPU)",
        await sideBySide(
          portalApi,
          {
            label: "bare route",
            url: `${bare.url}/api${PROXIED}`,
            pid: bare.pid,
            ...proxiedCall,
            prepare: cookieAfterTesting(client),
          },
          options,
        ),
        "cpu",
        { atMost: 1.3 },
      ),
    );

    const gatedPage = gatedPageOf("gated page", portal, client);
    // The same page and cookie from the thinnest server of the same libraries, its HTML rendered once: what the portal
    // adds to a page (its gates, session checks, kept render, idle times), in CPU as row 1b does for /api.
    rows.push(
      ratioRow(
        "2b. What the portal adds to a page: signed-in section page ÷ the same HTML from a bare Fastify + @fastify/secure-session + @fastify/helmet page (CPU)",
        await sideBySide(
          gatedPage,
          { ...gatedPage, label: "bare page", url: `${barePage.url}${GATED_PAGE}`, pid: barePage.pid },
          options,
        ),
        "cpu",
        { atMost: 1.3 },
      ),
    );

    // The security stores shared through a real redis-server, beside the same build with them in memory.
    const redisRow = async (name: string, through: typeof apiThrough, atLeast: number) =>
      ratioRow(
        name,
        await sideBySide(
          through("with Redis", portalOnRedis, redisClient),
          through("in memory", portal, client),
          options,
        ),
        "throughput",
        { atLeast },
      );
    // The container's heap options beside Node's defaults, same build and requests, two portals started together and
    // warmed alike: what the smaller young generation (row 7c's memory) costs in collections.
    const heapClient = await signIn(portalWithHeap.url, accounts.alice, fakeUpstreamCode);
    const defaultsClient = await signIn(portalWithDefaults.url, accounts.alice, fakeUpstreamCode);
    const heapRow = async (name: string, through: typeof apiThrough) =>
      ratioRow(
        name,
        await sideBySide(
          through(`NODE_OPTIONS ${containerNodeOptions()}`, portalWithHeap, heapClient),
          through("Node's defaults", portalWithDefaults, defaultsClient),
          options,
        ),
        "cpu",
        { atMost: 1.03 },
      );
    rows.push(
      await heapRow(
        "7e. Heap options: gated page with the container's NODE_OPTIONS ÷ Node's defaults (CPU)",
        gatedPageOf,
      ),
      await heapRow(
        "7f. Heap options: /api call with the container's NODE_OPTIONS ÷ Node's defaults (CPU)",
        apiThrough,
      ),
    );
    rows.push(
      await redisRow("8a. Redis: gated page with REDIS_URL ÷ without (req/s)", gatedPageOf, 0.9),
      await redisRow("8b. Redis: /api call with REDIS_URL ÷ without (req/s)", apiThrough, 0.8),
    );
    return rows;
  } finally {
    const { redis, ...servers } = started;
    await Promise.all(Object.values(servers).map((server) => (typeof server === "string" ? undefined : server.stop())));
    await redis?.stop();
  }
}

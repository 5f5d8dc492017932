// Benchmarks 1–4: the proxy, a gated page, page tracking and the session, each beside its reference in one run.
import { type LoadOptions, sideBySide } from "#scripts/bench/load.ts";
import { type PortalServers, signIn, startPortalOnUpstream } from "#scripts/bench/portal.ts";
import { freePort, type Server, startServer } from "#scripts/bench/processes.ts";
import { type Row, ratioRow } from "#scripts/bench/report.ts";
import type { PortalClient } from "#scripts/portal-client.ts";

const GATED_PAGE = "/client/invoice/entry"; // SPEC.md 2.8, gate notViewOnly
const OTHER_PAGE = "/client/home";
const PUBLIC_PAGE = "/register";
const PROXIED = "/web/client/password/test";
const PASSWORD_TEST = JSON.stringify({ userId: "alice", password: "Portal-Demo-2026!" });

type Servers = PortalServers & { hello: Server; bare: Server; token: string };

async function startServers(): Promise<Servers> {
  const servers = await startPortalOnUpstream();
  const hello = await startServer("scripts/bench/hello-world.ts", await freePort(), {});
  // The token the upstream issues: the direct call and the bare proxy carry it, as the portal's forwarded call does.
  const issued = await fetch(`${servers.upstream.url}/auth/client`, { method: "POST" });
  const { token } = (await issued.json()) as { token: string };
  const bare = await startServer(
    "scripts/bench/bare-proxy.ts",
    await freePort(),
    { NODE_ENV: "production", UPSTREAM_URL: servers.upstream.url, UPSTREAM_TOKEN: token },
    "/healthz",
  );
  return { ...servers, hello, bare, token };
}

/**
 * A cookie whose last tracked page is `page`, fresh for a round (its "last seen" is now, written with the visit),
 * so the page's requests are repeat views: no visit recorded, no cookie written. A browser keeps the cookie it is
 * given; autocannon does not, so without this a cookie more than a minute old would be written again on every request.
 */
const cookieAfterVisiting = (client: PortalClient, page: string) => async () => {
  await client.get(OTHER_PAGE === page ? GATED_PAGE : OTHER_PAGE);
  await client.get(page);
  return { cookie: client.cookie };
};

export async function throughputBenches(options: LoadOptions): Promise<Row[]> {
  const servers = await startServers();
  try {
    const { upstream, portal, hello, bare, token } = servers;
    const client = await signIn(portal.url);
    const rows: Row[] = [];

    const proxied = {
      method: "POST" as const,
      body: PASSWORD_TEST,
      headers: { "content-type": "application/json" },
    };
    const portalApi = {
      label: "portal /api",
      prepare: cookieAfterVisiting(client, GATED_PAGE),
      url: `${portal.url}/api${PROXIED}`,
      pid: portal.pid,
      ...proxied,
      headers: { ...proxied.headers, "x-portal-request": "1", cookie: client.cookie },
    };
    rows.push(
      ratioRow(
        "1. Proxy: /api call through the portal ÷ straight to the upstream",
        await sideBySide(
          portalApi,
          {
            label: "upstream direct",
            url: `${upstream.url}${PROXIED}`,
            pid: upstream.pid,
            ...proxied,
            headers: { ...proxied.headers, authorization: `Bearer ${token}` },
          },
          options,
        ),
        "throughput",
        { atLeast: 0.4 },
      ),
    );
    // Not a goal of the issue: where benchmark 1's time goes. The same call through the thinnest proxy of the same parts.
    rows.push(
      ratioRow(
        "1b. What the portal adds: /api through the portal ÷ through a bare Fastify proxy of the same parts (CPU)",
        await sideBySide(
          portalApi,
          { label: "bare proxy", url: `${bare.url}/api${PROXIED}`, pid: bare.pid, ...proxied },
          options,
        ),
        "cpu",
        {},
      ),
    );

    const gatedPage = {
      label: "gated page",
      url: `${portal.url}${GATED_PAGE}`,
      pid: portal.pid,
      prepare: cookieAfterVisiting(client, GATED_PAGE),
    };
    rows.push(
      ratioRow(
        "2. Gated page: signed-in section page ÷ Fastify hello-world",
        await sideBySide(gatedPage, { label: "hello-world", url: `${hello.url}/`, pid: hello.pid }, options),
        "throughput",
        { atLeast: 0.4 },
      ),
    );

    rows.push(
      ratioRow(
        "3. Tracking: every view a new visit ÷ repeat views (CPU)",
        await sideBySide(
          // The cookie's last page is another one, and autocannon never stores the new cookie: every request is a
          // visit to record (the worst case; a browser records only a change of page).
          { ...gatedPage, label: "tracking on", prepare: cookieAfterVisiting(client, OTHER_PAGE) },
          { ...gatedPage, label: "tracking off" },
          options,
        ),
        "cpu",
        { atMost: 1.1 },
      ),
    );

    rows.push(
      ratioRow(
        "4. Session: a page reading a signed-in session ÷ the same page without one (CPU)",
        await sideBySide(
          {
            label: "with session",
            url: `${portal.url}${PUBLIC_PAGE}`,
            pid: portal.pid,
            prepare: cookieAfterVisiting(client, PUBLIC_PAGE),
          },
          { label: "without session", url: `${portal.url}${PUBLIC_PAGE}`, pid: portal.pid },
          options,
        ),
        "cpu",
        { atMost: 1.25 },
      ),
    );
    return rows;
  } finally {
    const { upstream, portal, hello, bare } = servers;
    await Promise.all([upstream, portal, hello, bare].map((server) => server.stop()));
  }
}

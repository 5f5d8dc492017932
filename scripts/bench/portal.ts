// The portal as the benches run it: compiled, NODE_ENV=production, in a process of its own, in front of the bench's
// upstream. (The tests build theirs in their own process: tests/support/portal.ts's startPortalInProcess.)
import { randomBytes } from "node:crypto";
import { freePort, PORTAL_MAIN, type Server, startServer } from "#scripts/bench/processes.ts";

export type PortalServers = { upstream: Server; portal: Server };

/** The scriptable fake upstream (harness/fake-upstream.ts) in a process of its own. */
export async function startUpstream(): Promise<Server> {
  return startServer("scripts/bench/upstream.ts", await freePort(), {});
}

/**
 * The compiled portal (dist/, or another build of it: `main`) in front of `upstreamUrl`; `env` adds to its environment
 * (e.g. REDIS_URL).
 */
export async function startBuiltPortal(
  upstreamUrl: string,
  env: NodeJS.ProcessEnv = {},
  nodeArgs: string[] = [],
  main = PORTAL_MAIN,
): Promise<Server> {
  return startServer(
    main,
    await freePort(),
    {
      NODE_ENV: "production",
      UPSTREAM_URL: upstreamUrl,
      SESSION_KEY: randomBytes(32).toString("hex"),
      PUBLIC_URL: "http://localhost",
      // The /api figure is the password test, throttled per person: one benchmark user sends more in a second than a
      // person in a day. Each call still takes and gives back its attempt, so the throttle's cost is in the figure.
      RATE_LIMIT_IP_PER_MINUTE: "100000000",
      RATE_LIMIT_USER_PER_MINUTE: "100000000",
      // Every connection of the load comes from this one address, which in production would be many people's.
      MAX_SOCKETS_PER_ADDRESS: "10000",
      ...env,
    },
    "/healthz",
    nodeArgs,
  );
}

/** The bench upstream, then the portal in front of it, each its own process; `env` adds to the portal's environment. */
export async function startPortalOnUpstream(env: NodeJS.ProcessEnv = {}): Promise<PortalServers> {
  const upstream = await startUpstream();
  try {
    return { upstream, portal: await startBuiltPortal(upstream.url, env) };
  } catch (error) {
    await upstream.stop();
    throw error;
  }
}

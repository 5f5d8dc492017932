// The portal as the benches run it: built, NODE_ENV=production, in front of the bench's upstream, and a signed-in client.
import { randomBytes } from "node:crypto";
import { freePort, type Server, startServer } from "#scripts/bench/processes.ts";
import { PortalClient } from "#scripts/portal-client.ts";

export type PortalServers = { upstream: Server; portal: Server };

/** The bench upstream, then the portal in front of it, each its own process; `env` adds to the portal's environment. */
export async function startPortalOnUpstream(env: NodeJS.ProcessEnv = {}): Promise<PortalServers> {
  const upstream = await startServer("scripts/bench/upstream.ts", await freePort(), {});
  try {
    const portal = await startServer(
      "server/main.ts",
      await freePort(),
      {
        NODE_ENV: "production",
        UPSTREAM_URL: upstream.url,
        SESSION_KEY: randomBytes(32).toString("hex"),
        PUBLIC_URL: "http://localhost",
        ...env,
      },
      "/healthz",
    );
    return { upstream, portal };
  } catch (error) {
    await upstream.stop();
    throw error;
  }
}

/** A signed-in client of the portal (password, then code), as the islands would do it. */
export async function signIn(portalUrl: string): Promise<PortalClient> {
  const client = new PortalClient(portalUrl);
  await client.post("/api/auth/client", { shortname: "ACME", username: "alice", password: "Portal-Demo-2026!" });
  await client.post("/api/web/client/mfa/generate");
  const validated = await client.post("/api/web/client/mfa/validate/123456");
  if (validated.status !== 200 || !client.cookie) throw new Error(`sign-in failed: ${validated.status}`);
  return client;
}

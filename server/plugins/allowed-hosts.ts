// The Host names the portal answers for, so a page of another site that rebinds its own name to this machine (DNS
// rebinding) reads nothing: the names of PUBLIC_URL and of loopback, and addresses, which no rebinding can send.
import { isIP } from "node:net";
import type { FastifyInstance } from "fastify";

/** Which names are allowed: `any` where none can be derived (no PUBLIC_URL, reached from elsewhere). */
export type HostNames = { any: true } | { any: false; names: readonly string[] };

/** The host of a Host header, lower-case, without its port, brackets or a trailing dot; undefined when malformed. */
export function hostOf(header: string | undefined): string | undefined {
  if (header === undefined || header === "") return undefined;
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+))(?::\d{1,5})?$/.exec(header.trim());
  const host = match?.[1] ?? match?.[2];
  return host?.toLowerCase().replace(/\.$/, "");
}

/**
 * Whether a request with this Host header is for us: an address, a loopback name, or one of `names`; with `any`, any
 * name. A request that names no host at all is never ours (Node no longer refuses it itself: server/app.ts).
 */
export function hostAllowed(header: string | undefined, allowed: HostNames): boolean {
  if (allowed.any) return header !== undefined && header !== "";
  const host = hostOf(header);
  if (host === undefined) return false;
  if (isIP(host) !== 0 || host === "localhost" || host.endsWith(".localhost")) return true;
  return allowed.names.includes(host);
}

/**
 * From the portal's settings: PUBLIC_URL's name when set; else, on a loopback address, loopback names only; else any
 * (nothing to derive them from: PUBLIC_URL names it). Behind a proxy PUBLIC_URL is required (server/config.ts).
 */
export function allowedHostNames(settings: { publicUrl?: string; loopback: boolean }): HostNames {
  if (settings.publicUrl !== undefined) return { any: false, names: [new URL(settings.publicUrl).hostname] };
  return settings.loopback ? { any: false, names: [] } : { any: true };
}

/**
 * Answers 421 Misdirected Request, before anything else, to a request for a name the app does not serve, or none. With
 * any name allowed, the start says so: an operator reaching it from elsewhere learns that PUBLIC_URL is the guard.
 */
export function refuseOtherHosts(app: FastifyInstance, allowed: HostNames): void {
  if (allowed.any)
    app.log.warn(
      "PUBLIC_URL is not set and HOST is not loopback: any Host name is answered; set PUBLIC_URL to answer its own alone",
    );
  app.addHook("onRequest", async (request, reply) => {
    if (hostAllowed(request.headers.host, allowed)) return;
    return reply.code(421).type("text/plain; charset=utf-8").send("This server does not answer for that host name.");
  });
}

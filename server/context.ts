// What every route of the portal shares: configuration, the upstream, the declared operations, tracking and the clock.
import type { FastifyBaseLogger } from "fastify";
import createClient, { type Client } from "openapi-fetch";
import type { paths } from "#openapi/schema.d.ts";
import type { Config } from "#server/config.ts";
import { RateLimiter } from "#server/rate-limit.ts";
import { Revocations, Strikes } from "#server/revocations.ts";
import { VisitTracker } from "#server/tracking.ts";
import { loadOperations, type Operation } from "#server/upstream/operations.ts";

export type AppContext = {
  config: Config;
  upstreamUrl: string;
  /** The typed client for the portal's own upstream calls (permissions, tracking). */
  upstream: Client<paths>;
  operations: Operation[];
  tracker: VisitTracker;
  limiter: RateLimiter;
  /** Session ids signed out before their cookie expired. */
  revoked: Revocations;
  /** Wrong MFA codes per pending session id. */
  mfaStrikes: Strikes;
  now: () => number;
  /** Set when the embedded sandbox runs: its address, for the sandbox-only mailbox page. */
  sandboxUrl: string | undefined;
};

export type ContextOptions = { now?: () => number; sandbox?: boolean };

export function createContext(
  config: Config,
  upstreamUrl: string,
  log: FastifyBaseLogger,
  options: ContextOptions = {},
): AppContext {
  const upstream = createClient<paths>({ baseUrl: upstreamUrl });
  const now = options.now ?? Date.now;
  return {
    config,
    upstreamUrl,
    upstream,
    operations: loadOperations(),
    tracker: new VisitTracker(upstream, log, config.upstreamTimeoutMs),
    limiter: new RateLimiter(config.rateLimits, now),
    revoked: new Revocations(config.session.maxSeconds * 1000, now),
    mfaStrikes: new Strikes(config.session.maxSeconds * 1000, now),
    now,
    sandboxUrl: options.sandbox ? upstreamUrl : undefined,
  };
}

// What every route of the portal shares: configuration, the upstream, the declared operations, tracking and the clock.
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "#server/config.ts";
import { Metrics } from "#server/metrics.ts";
import { type AttemptLimiter, RateLimiter } from "#server/rate-limit.ts";
import { type RevocationStore, Revocations, type StrikeCounter, Strikes } from "#server/revocations.ts";
import { VisitTracker } from "#server/tracking.ts";
import { type Upstream, upstreamCaller } from "#server/upstream/call.ts";
import { loadOperations, type Operation } from "#server/upstream/operations.ts";

export type AppContext = {
  config: Config;
  upstreamUrl: string;
  /** Every call to the upstream goes through this, so each is bounded in time and counted. */
  upstream: Upstream;
  metrics: Metrics;
  operations: Operation[];
  tracker: VisitTracker;
  /** Sign-in, reset and MFA throttles. This and the next two are per replica: SECURITY.md, "Several replicas". */
  limiter: AttemptLimiter;
  /** Session ids signed out before their cookie expired. */
  revoked: RevocationStore;
  /** Wrong MFA codes per pending session id. */
  mfaStrikes: StrikeCounter;
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
  const now = options.now ?? Date.now;
  const metrics = new Metrics();
  const upstream = upstreamCaller(upstreamUrl, config.upstreamTimeoutMs, metrics);
  return {
    config,
    upstreamUrl,
    upstream,
    metrics,
    operations: loadOperations(),
    tracker: new VisitTracker(upstream, metrics, log),
    limiter: new RateLimiter(config.rateLimits, now),
    revoked: new Revocations(config.session.maxSeconds * 1000, now),
    mfaStrikes: new Strikes(config.session.maxSeconds * 1000, now),
    now,
    sandboxUrl: options.sandbox ? upstreamUrl : undefined,
  };
}

// Prometheus metrics of one portal process: requests by route pattern, upstream calls, sign-in outcomes, page visits.
// Each app has its own registry, so tests can build many apps in one process. The plugin records each request once its
// answer has gone, labelled by route pattern (never by raw path), and serves `/metrics` only when METRICS_TOKEN is set
// and only to a request bearing it.
import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { AppContext } from "#server/context.ts";
import { Refusal } from "#server/plugins/errors.ts";

/** Seconds; a page answers in milliseconds, an upstream call may take up to its timeout. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export type VisitState = "queued" | "sent" | "failed" | "dropped";

export class Metrics {
  readonly registry = new Registry();

  readonly requests = new Histogram({
    name: "portal_http_request_duration_seconds",
    help: "Requests answered by the portal, by route pattern (pages: the route table's), method and status.",
    labelNames: ["method", "route", "status"] as const,
    buckets: BUCKETS,
    registers: [this.registry],
  });

  readonly upstreamCalls = new Histogram({
    name: "portal_upstream_call_duration_seconds",
    help: "Calls to the upstream, by operation and outcome (the status class, timeout or unreachable).",
    labelNames: ["operation", "outcome"] as const,
    buckets: BUCKETS,
    registers: [this.registry],
  });

  readonly upstreamErrors = new Counter({
    name: "portal_upstream_errors_total",
    help: "Upstream calls that failed: 5xx answers, timeouts and unreachable upstream, by operation.",
    labelNames: ["operation", "outcome"] as const,
    registers: [this.registry],
  });

  readonly signIns = new Counter({
    name: "portal_sign_in_outcomes_total",
    help: "Sign-in steps by event (sign-in, link-sign-in, mfa) and outcome.",
    labelNames: ["event", "outcome"] as const,
    registers: [this.registry],
  });

  readonly visits = new Counter({
    name: "portal_tracked_visits_total",
    help: "Page visits (requirements 4.8) queued, sent, failed (refused or not delivered) and dropped (queue full, or unsent at shutdown).",
    labelNames: ["state"] as const,
    registers: [this.registry],
  });

  /** Registered at the first readiness probe: before one, nothing is known. */
  #upstreamUp: Gauge | undefined;
  /** Registered at its first change, so that a portal without REDIS_URL does not report Redis as down. */
  #redisUp: Gauge | undefined;
  #redisDrops: Counter | undefined;
  #redisRefused: Counter | undefined;

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: "portal_" });
  }

  /** `result`: the upstream's status, or the name of the fault that took its place (timeout, unreachable, …). */
  upstreamCall(operation: string, result: number | string, seconds: number): void {
    const outcome = typeof result === "number" ? `${Math.floor(result / 100)}xx` : result;
    this.upstreamCalls.observe({ operation, outcome }, seconds);
    if (typeof result !== "number" || result >= 500) this.upstreamErrors.inc({ operation, outcome });
  }

  visit(state: VisitState, count = 1): void {
    this.visits.inc({ state }, count);
  }

  upstreamState(up: boolean): void {
    this.#upstreamUp ??= new Gauge({
      name: "portal_upstream_up",
      help: "1 while the upstream answered the last readiness probe, 0 while it does not (the replica stays ready).",
      registers: [this.registry],
    });
    this.#upstreamUp.set(up ? 1 : 0);
  }

  /** The shared stores' hook (`onRedisState`): 1 while Redis answers in time, 0 while they fall back to memory. */
  redisState(up: boolean): void {
    this.#redisUp ??= new Gauge({
      name: "portal_redis_up",
      help: "1 while Redis (REDIS_URL) answers in time; 0 while sessions, throttles and strikes fall back to this replica's memory.",
      registers: [this.registry],
    });
    this.#redisUp.set(up ? 1 : 0);
    this.#redisDrops ??= new Counter({
      name: "portal_redis_drops_total",
      help: "Times the link to Redis went down (each drop of a flapping outage too; the log says only its start and end).",
      registers: [this.registry],
    });
    if (!up) this.#redisDrops.inc();
  }

  /** The shared stores' hook (`onRedisRefused`): a write Redis refused for its maxmemory, counted in this replica. */
  redisRefused(): void {
    this.#redisRefused ??= new Counter({
      name: "portal_redis_refused_writes_total",
      help: "Throttle counts and locks Redis refused at its maxmemory, kept in this replica instead.",
      registers: [this.registry],
    });
    this.#redisRefused.inc();
  }
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/** The route pattern a request was answered by (a page's is its row of the route table); another address's, none. */
function routeOf(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  if (pattern === undefined) return "(unmatched)";
  return pattern === "/*" ? "(other page)" : pattern;
}

/** Not encapsulated: the request metrics cover every route of the app. */
export const metricsPlugin = fp(async (app: FastifyInstance, context: AppContext) => {
  const { metrics, config } = context;
  app.addHook("onResponse", (request, reply, done) => {
    metrics.requests.observe(
      { method: request.method, route: routeOf(request), status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });

  const token = config.metricsToken;
  if (!token) return;
  const expected = digest(`Bearer ${token}`);
  app.get("/metrics", async (request, reply) => {
    // Digests of equal length, compared in constant time: the token's length and content leak nothing.
    if (!timingSafeEqual(digest(request.headers.authorization ?? ""), expected))
      throw new Refusal(401, "Unauthorized", undefined, { "www-authenticate": 'Bearer realm="metrics"' });
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
});

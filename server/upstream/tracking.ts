// Page tracking (requirements 4.8), sent by the server off the response path: queued, sent in the background, flushed at close.
import { AsyncResource } from "node:async_hooks";
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyBaseLogger } from "fastify";
import { LRUCache } from "lru-cache";
import { FailureRun } from "#server/plugins/logging.ts";
import type { Metrics } from "#server/plugins/metrics.ts";
import { refusesToken } from "#server/session/lifecycle.ts";
import { bearer, faultOf, type UpstreamClient } from "#server/upstream/client.ts";

/** A page visit of a session: `refused` ends the session when the upstream refuses its token (requirements 4.5). */
export type Visit = { token: string; page: string; session: string; refused?: () => void };

/** A visit and the async context of the request that queued it: a trace follows the visit to its page view. */
type Queued = Visit & { queuedIn: AsyncResource };

/** Visits waiting to be sent; beyond this (an upstream that stopped answering) the oldest are dropped and logged. */
export const MAX_QUEUED_VISITS = 10_000;
/**
 * Visits one session may have waiting or on their way. One session's visits go one after another, so a session that
 * views pages faster than the upstream records them (a script) loses its own newest visits here, and never fills the
 * shared queue with them, which would drop other people's.
 */
export const MAX_QUEUED_VISITS_PER_SESSION = 100;

export class VisitTracker {
  #queue: Queued[] = [];
  /** Each token's visits waiting or on their way. */
  #pending = new Map<string, number>();
  /** Tokens whose newest visits are being dropped: logged once, when the session reaches its limit. */
  #overLimit = new Set<string>();
  #sending: Promise<void> | undefined;
  /** Visits failed since the last one the upstream took: logged when an outage starts and when it ends. */
  #outage: FailureRun;
  /** Visits dropped from a full queue: logged when it fills, and when it has drained to half. */
  #overflow: FailureRun;
  /** Set when a flush gave up: answers that come after it change nothing, its count already holds them. */
  #abandoned = false;
  /** Sessions whose token the upstream refused: they have ended, and nothing more is sent for them. */
  readonly #refused = new LRUCache<string, true>({ max: 10_000 });

  constructor(
    private readonly upstream: UpstreamClient,
    private readonly metrics: Metrics,
    private readonly log: FastifyBaseLogger,
  ) {
    this.#outage = new FailureRun(
      log,
      "page tracking failing: visits are not recorded until it recovers",
      "page tracking recovered: the upstream records visits again",
    );
    this.#overflow = new FailureRun(
      log,
      "page tracking queue full: the oldest visits are dropped until it drains",
      "page tracking queue drained: no visit is dropped now",
    );
  }

  /** Queues a visit; it is sent after the current answer has gone out. */
  enqueue(visit: Visit): void {
    if (this.#refused.has(visit.session)) return;
    const pending = this.#pending.get(visit.token) ?? 0;
    if (pending >= MAX_QUEUED_VISITS_PER_SESSION) {
      this.metrics.visit("dropped");
      if (!this.#overLimit.has(visit.token)) {
        this.#overLimit.add(visit.token);
        this.log.warn("page tracking: a session's visits come faster than they are recorded; its newest are dropped");
      }
      return;
    }
    if (this.#queue.length >= MAX_QUEUED_VISITS) {
      const oldest = this.#queue.shift() as Queued;
      this.#done(oldest.token);
      this.metrics.visit("dropped");
      this.#overflow.failed({ queued: this.#queue.length });
    } else if (this.#queue.length < MAX_QUEUED_VISITS / 2) this.#overflow.succeeded();
    this.#pending.set(visit.token, pending + 1);
    this.#queue.push({ ...visit, queuedIn: new AsyncResource("PortalVisit") });
    this.metrics.visit("queued");
    this.#sending ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.#drain());
  }

  /**
   * Sends everything still queued, for at most `withinMs` when given: the app's close waits for it, within the
   * shutdown's grace. Resolves with the number of visits left unsent (queued, or sent with no answer yet), which are
   * logged in one line and counted as dropped.
   */
  async flush(withinMs?: number): Promise<number> {
    const drained = (async () => {
      while (this.#sending) await this.#sending;
      return true;
    })();
    if (withinMs === undefined) return drained.then(() => 0);
    const timer = new AbortController();
    const late = delay(withinMs, false, { signal: timer.signal }).catch(() => false);
    const onTime = await Promise.race([drained, late]);
    timer.abort();
    if (onTime) return 0;
    let unsent = 0;
    for (const pending of this.#pending.values()) unsent += pending;
    this.#abandoned = true;
    this.#queue.length = 0;
    this.#pending.clear();
    this.metrics.visit("dropped", unsent);
    this.log.warn({ unsent, withinMs }, "page tracking: visits not sent before the shutdown's deadline");
    return unsent;
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#queue.length);
      // One session's visits go one after another, so the upstream records them in the order they happened;
      // different sessions' visits go side by side.
      const byToken = new Map<string, Queued[]>();
      for (const visit of batch) {
        const visits = byToken.get(visit.token);
        if (visits) visits.push(visit);
        else byToken.set(visit.token, [visit]);
      }
      await Promise.all(
        [...byToken.values()].map(async (visits) => {
          for (const visit of visits) {
            await visit.queuedIn.runInAsyncScope(() => this.#send(visit));
            this.#done(visit.token);
          }
        }),
      );
    }
    this.#sending = undefined;
  }

  /** A visit of this token was sent, failed or dropped. */
  #done(token: string): void {
    const pending = (this.#pending.get(token) ?? 1) - 1;
    if (pending > 0) return void this.#pending.set(token, pending);
    this.#pending.delete(token);
    this.#overLimit.delete(token); // caught up: a later flood is logged again
  }

  async #send({ token, page, session, refused }: Visit): Promise<void> {
    if (this.#refused.has(session)) return this.metrics.visit("failed");
    let response: Response;
    try {
      ({ response } = await this.upstream.POST("/web/track", { body: { page }, headers: bearer(token) }));
    } catch (error) {
      // A visit that cannot even be asked (the client refused to build the call) is lost, never the process.
      return this.#failed({ err: error });
    }
    if (this.#abandoned) return;
    const fault = faultOf(response);
    if (fault) return this.#failed({ fault });
    if (refusesToken(response.status)) {
      // The session's own end, not an outage: its record ends now, and its next request finds it ended.
      this.#refused.set(session, true);
      refused?.();
      return this.metrics.visit("failed");
    }
    if (!response.ok) return this.#failed({ status: response.status });
    this.metrics.visit("sent");
    this.#outage.succeeded();
  }

  #failed(why: Record<string, unknown>): void {
    if (this.#abandoned) return;
    this.metrics.visit("failed");
    this.#outage.failed(why);
  }
}

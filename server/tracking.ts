// Page tracking (SPEC.md 4.8), sent by the server off the response path: queued, sent in the background, flushed at close.
import { hash } from "node:crypto";
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import type { paths } from "#openapi/schema.d.ts";
import type { Metrics } from "#server/metrics.ts";
import type { Auth } from "#server/session.ts";
import type { Upstream } from "#server/upstream/call.ts";

type TrackBody = paths["/web/track"]["post"]["requestBody"]["content"]["application/json"];

type Visit = { token: string; page: string };

/** Tokens remembered as refused; the oldest is forgotten beyond this, so memory stays bounded. */
export const MAX_REFUSED_TOKENS = 10_000;
/** Visits waiting to be sent; beyond this (an upstream that stopped answering) the oldest are dropped and logged. */
export const MAX_QUEUED_VISITS = 10_000;

export class VisitTracker {
  #queue: Visit[] = [];
  #sending: Promise<void> | undefined;
  /** Tokens the upstream refused while tracking, in the order refused: their sessions expire at their next request. */
  #refused = new Set<string>();

  constructor(
    private readonly upstream: Upstream,
    private readonly metrics: Metrics,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Queues a visit; it is sent after the current answer has gone out. */
  enqueue(visit: Visit): void {
    if (this.#refused.has(visit.token)) return;
    if (this.#queue.length >= MAX_QUEUED_VISITS) {
      this.#queue.shift();
      this.metrics.visit("dropped");
      this.log.warn("page tracking queue full: the oldest visit was dropped");
    }
    this.#queue.push(visit);
    this.metrics.visit("queued");
    this.#sending ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.#drain());
  }

  expired(token: string): boolean {
    return this.#refused.has(token);
  }

  /** Sends everything still queued; the app's close waits for it so no record is lost. */
  async flush(): Promise<void> {
    while (this.#sending) await this.#sending;
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#queue.length);
      // One session's visits go one after another, so the upstream records them in the order they happened;
      // different sessions' visits go side by side.
      const byToken = new Map<string, Visit[]>();
      for (const visit of batch) {
        const visits = byToken.get(visit.token);
        if (visits) visits.push(visit);
        else byToken.set(visit.token, [visit]);
      }
      await Promise.all(
        [...byToken.values()].map(async (visits) => {
          for (const visit of visits) await this.#send(visit);
        }),
      );
    }
    this.#sending = undefined;
  }

  async #send({ token, page }: Visit): Promise<void> {
    if (this.#refused.has(token)) return this.metrics.visit("failed");
    const body: TrackBody = { page };
    const answer = await this.upstream({ operation: "trackPage", method: "POST", path: "/web/track", token, body });
    this.metrics.visit(answer.kind === "answer" && answer.ok ? "sent" : "failed");
    if (answer.kind === "fault") this.log.warn({ fault: answer.fault }, "page tracking failed");
    else if (answer.status === 401) this.#refuse(token);
    else if (!answer.ok) this.log.warn({ status: answer.status }, "page tracking refused");
  }

  #refuse(token: string): void {
    this.#refused.add(token);
    if (this.#refused.size <= MAX_REFUSED_TOKENS) return;
    // A Set iterates in insertion order: the first is the oldest refusal, whose session has long had its chance.
    const oldest = this.#refused.values().next();
    if (!oldest.done) this.#refused.delete(oldest.value);
  }
}

/**
 * A browser's navigation to a page: a GET (not a HEAD) for a document (when the browser says what it fetches: an icon
 * request that lands on a page is no visit) that is not a speculative prefetch.
 */
export function isNavigation(request: FastifyRequest): boolean {
  if (request.method !== "GET") return false;
  const destination = request.headers["sec-fetch-dest"];
  if (destination !== undefined && destination !== "document" && destination !== "iframe") return false;
  const { "sec-purpose": secPurpose, purpose } = request.headers;
  if (secPurpose === undefined && purpose === undefined) return true;
  return !/prefetch|prerender/i.test(`${secPurpose ?? ""} ${purpose ?? ""}`);
}

/**
 * The previous path as the session keeps it: the path itself when short (no hashing for the route table's paths), a
 * digest otherwise, so a long URL cannot grow the cookie. A digest has no `/`, so it never equals a kept path.
 */
const pageDigest = (page: string) => (page.length <= 64 ? page : hash("sha256", page, "base64url").slice(0, 22));

/**
 * Records a visit unless it is `/` or the same path as the previous one (kept in the session). The cookie is written
 * again for it, so it carries this moment as the session's last activity too (otherwise kept to the minute).
 */
export function trackVisit(
  tracker: VisitTracker,
  request: FastifyRequest,
  auth: Auth,
  page: string,
  now: number,
): void {
  const digest = pageDigest(page);
  if (page === "/" || request.session.get("lastPage") === digest) return;
  request.session.set("lastPage", digest);
  request.session.set("seen", now);
  tracker.enqueue({ token: auth.token, page });
}

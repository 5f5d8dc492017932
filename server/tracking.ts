// Page tracking (SPEC.md 4.8), sent by the server off the response path: queued, sent in the background, flushed at close.
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import type { Client } from "openapi-fetch";
import type { paths } from "#openapi/schema.d.ts";
import type { AppContext } from "#server/context.ts";
import type { Auth } from "#server/session.ts";

type Visit = { token: string; page: string };

export class VisitTracker {
  #queue: Visit[] = [];
  #sending: Promise<void> | undefined;
  /** Tokens the upstream refused while tracking: their sessions expire at their next request. */
  #refused = new Set<string>();

  constructor(
    private readonly upstream: Client<paths>,
    private readonly log: FastifyBaseLogger,
    private readonly timeoutMs: number,
  ) {}

  enqueue(visit: Visit): void {
    this.#queue.push(visit);
    this.#sending ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.#drain());
  }

  expired(token: string): boolean {
    return this.#refused.has(token);
  }

  /** Sends everything still queued; graceful shutdown waits for it so no record is lost. */
  async flush(): Promise<void> {
    while (this.#sending) await this.#sending;
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#queue.length);
      await Promise.all(batch.map((visit) => this.#send(visit)));
    }
    this.#sending = undefined;
  }

  async #send({ token, page }: Visit): Promise<void> {
    try {
      const { response } = await this.upstream.POST("/web/track", {
        body: { page },
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (response.status === 401) this.#refused.add(token);
      else if (!response.ok) this.log.warn({ status: response.status }, "page tracking refused");
    } catch (error) {
      this.log.warn({ err: error instanceof Error ? error.message : String(error) }, "page tracking failed");
    }
  }
}

/** Records a visit unless it is `/` or the same path as the previous one (kept in the session). */
export function trackVisit(context: AppContext, request: FastifyRequest, auth: Auth, page: string): void {
  if (page === "/" || request.session.get("lastPage") === page) return;
  request.session.set("lastPage", page);
  context.tracker.enqueue({ token: auth.token, page });
}

// Logger options: JSON lines with the request id; no password, code, token or cookie ever written. And a run of
// failures of one kind, logged as two lines: when it starts, and when it ends with its count. A line per failure would
// flood the log at the rate of traffic during an outage; /metrics counts each one.
import {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from "fastify";

/** Route parameters whose value is a secret: never logged, however the URL spelled the path. */
const SECRET_PARAMS = new Set(["code"]);

/** What the serializer is given: Fastify's request (a matched route), or a bare one (none). */
type Loggable = {
  url: string;
  routeOptions?: { url?: string | undefined };
  params?: unknown;
};

/**
 * A path as it may be logged, without its query (link-login uuids) and without any MFA code. It is written from the
 * route the request matched, never from the raw URL: the router decodes `validat%65` to `validate`, so a pattern
 * matched against the raw URL would miss it. A matched route's pattern is filled with its parameters, a secret one
 * as `***`. A request no parameterised route matched (a page, an unknown `/api` path) keeps its path, each segment
 * after `mfa/validate` (however encoded) redacted too.
 */
export function loggablePath(request: Loggable): string {
  const pattern = request.routeOptions?.url;
  if (pattern?.includes(":") && !pattern.includes("*")) {
    const params = (request.params ?? {}) as Record<string, unknown>;
    return pattern.replace(/:(\w+)/g, (_whole, name: string) =>
      SECRET_PARAMS.has(name) ? "***" : encodeURIComponent(String(params[name] ?? "")),
    );
  }
  const segments = (request.url.split("?", 1)[0] ?? "").split("/");
  return segments
    .map((segment, index) =>
      index >= 2 && decoded(segments[index - 1]) === "validate" && decoded(segments[index - 2]) === "mfa"
        ? "***"
        : segment,
    )
    .join("/");
}

/** A segment decoded until it no longer changes (a few rounds at most), lower-cased; a malformed one as it is. */
function decoded(segment: string | undefined): string {
  let value = segment ?? "";
  for (let round = 0; round < 3; round += 1) {
    try {
      const next = decodeURIComponent(value);
      if (next === value) break;
      value = next;
    } catch {
      break;
    }
  }
  return value.toLowerCase();
}

/**
 * Lines a dependency writes beside the portal's own line for the same event: @fastify/reply-from warns "response
 * errored" for each forward that failed, and the forwarding routes log that fault themselves ("upstream fault").
 */
const DUPLICATE_MESSAGES = new Set(["response errored"]);

export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions["logger"] {
  return {
    level,
    ...(stream ? { stream } : {}),
    hooks: {
      logMethod(args, write) {
        if (typeof args[1] === "string" && DUPLICATE_MESSAGES.has(args[1])) return;
        write.apply(this, args);
      },
    },
    // The serializers below write no headers at all; this catches a password or token in any other object logged.
    redact: { paths: ["*.password", "*.token"], censor: "[redacted]" },
    serializers: {
      req: (request: Loggable & { method: string; ip?: string }) => ({
        method: request.method,
        url: loggablePath(request),
        remoteAddress: request.ip,
      }),
    },
  };
}

const notes = new WeakMap<FastifyRequest, Record<string, unknown>>();

/**
 * Fields said on the request's own line rather than on a line of their own: for an event that can come as often as
 * requests do (a throttled attempt), so that a flood of them adds nothing to the log's volume.
 */
export function noteOnRequestLine(request: FastifyRequest, fields: Record<string, unknown>): void {
  notes.set(request, { ...notes.get(request), ...fields });
}

/** One line per request, written when its answer has gone (Fastify's own logging writes two: incoming, completed). */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { ...notes.get(request), req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    else reply.log.info(line, "request completed");
  }
}

export type RunLog = Pick<FastifyBaseLogger, "info" | "warn">;

export class FailureRun {
  #failed = 0;

  constructor(
    private readonly log: RunLog,
    /** Said once when failures start, with what the first one was. */
    private readonly started: string,
    /** Said once when one goes through again, with the number that failed. */
    private readonly ended: string,
    /** Said with both lines (which operation, say). */
    private readonly about: Record<string, unknown> = {},
  ) {}

  /** The failures since the last success. */
  get count(): number {
    return this.#failed;
  }

  failed(why: Record<string, unknown>): void {
    if (this.#failed++ === 0) this.log.warn({ ...this.about, ...why }, this.started);
  }

  succeeded(): void {
    if (this.#failed === 0) return;
    this.log.info({ ...this.about, failed: this.#failed }, this.ended);
    this.#failed = 0;
  }
}

/** A run per key (an upstream operation, say), each made when its first failure comes; keys are a known, small set. */
export class FailureRuns {
  readonly #runs = new Map<string, FailureRun>();

  constructor(
    private readonly log: RunLog,
    private readonly started: string,
    private readonly ended: string,
    /** The field that names the key in both lines ("operation"). */
    private readonly keyName: string,
  ) {}

  failed(key: string, why: Record<string, unknown>): void {
    let run = this.#runs.get(key);
    if (!run) {
      run = new FailureRun(this.log, this.started, this.ended, { [this.keyName]: key });
      this.#runs.set(key, run);
    }
    run.failed(why);
  }

  succeeded(key: string): void {
    this.#runs.get(key)?.succeeded();
  }

  /** The failures since the last success of `key`. */
  count(key: string): number {
    return this.#runs.get(key)?.count ?? 0;
  }
}

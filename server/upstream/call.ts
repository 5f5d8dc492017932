// One call to the upstream: bounded in time, answer parsed as JSON when not empty, faults named not thrown.
// undici's dispatcher over a keep-alive pool, the answer gathered by a plain handler: its request API wraps the body
// in a stream and the WHATWG fetch wrapper costs more again, each several tens of µs per call.
import type { IncomingHttpHeaders } from "node:http";
import { Agent, type Dispatcher } from "undici";
import type { Metrics } from "#server/metrics.ts";

export type UpstreamAnswer =
  | { kind: "answer"; status: number; ok: boolean; body: unknown; contentType: string; raw: Buffer }
  | { kind: "fault"; fault: "unreachable" | "timeout" };

export type UpstreamCall = {
  method: string;
  origin: string;
  /** The path on the origin, with its query. */
  path: string;
  token?: string | undefined;
  body?: unknown;
  timeoutMs: number;
};

/** Connections to the upstream stay open between calls; idle ones close before a typical upstream's own timeout. */
const pool = new Agent({ keepAliveTimeout: 4_000, connections: 256 });

export async function callUpstream({
  method,
  origin,
  path,
  token,
  body,
  timeoutMs,
}: UpstreamCall): Promise<UpstreamAnswer> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  try {
    const {
      status,
      headers: answerHeaders,
      raw,
    } = await dispatch({
      origin,
      path,
      method: method as Dispatcher.HttpMethod,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      // No timer of its own per call: undici bounds the wait for the answer's head, then each wait for its body.
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const contentType = String(answerHeaders["content-type"] ?? "");
    return {
      kind: "answer",
      status,
      ok: status >= 200 && status < 300,
      body: parseJson(raw, contentType),
      contentType,
      raw,
    };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const timedOut = code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT";
    return { kind: "fault", fault: timedOut ? "timeout" : "unreachable" };
  }
}

type Received = { status: number; headers: IncomingHttpHeaders; raw: Buffer };

/** Gathers one answer in memory (the upstream's answers are small JSON); one object per call, its methods shared. */
class Gather implements Dispatcher.DispatchHandler {
  #status = 0;
  #headers: IncomingHttpHeaders = {};
  #chunks: Buffer[] = [];

  constructor(
    private readonly resolve: (received: Received) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  onRequestStart(): void {} // undici tells this handler's kind by it

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
    this.#status = status;
    this.#headers = headers;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    const chunks = this.#chunks;
    const raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    this.resolve({ status: this.#status, headers: this.#headers, raw });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.reject(error);
  }
}

/** One request on the pool, its whole answer gathered. */
const dispatch = (options: Dispatcher.DispatchOptions) =>
  new Promise<Received>((resolve, reject) => pool.dispatch(options, new Gather(resolve, reject)));

/** A call as the portal's routes make it: the operation it is (for the metrics) and the path on the upstream. */
export type UpstreamRequest = Omit<UpstreamCall, "origin" | "timeoutMs"> & { operation: string };
export type Upstream = (call: UpstreamRequest) => Promise<UpstreamAnswer>;

/** The portal's one way to the upstream: its address, its time limit and the metrics of every call. */
export function upstreamCaller(baseUrl: string, timeoutMs: number, metrics: Metrics): Upstream {
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, "");
  const origin = base.origin;
  return async ({ operation, method, path, token, body }) => {
    const started = performance.now();
    const answer = await callUpstream({ method, origin, path: `${prefix}${path}`, token, body, timeoutMs });
    metrics.upstreamCall(operation, answer, (performance.now() - started) / 1000);
    return answer;
  };
}

/** Garbage and truncated bodies read as "no body": the caller then falls back to the status alone. */
function parseJson(raw: Buffer, contentType: string): unknown {
  if (raw.length === 0 || !/json/i.test(contentType)) return undefined;
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    return undefined;
  }
}

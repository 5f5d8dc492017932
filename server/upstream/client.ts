// The server's own typed calls to the upstream (permissions, tracking, readiness) through openapi-fetch: every call
// has a deadline for the whole call, a size cap on its answer, no redirects, and is counted; a fault is an answer.
import createClient, { type Middleware } from "openapi-fetch";
import { Agent, type Dispatcher, request as undiciRequest } from "undici";
import type { paths } from "#openapi/schema.d.ts";
import type { Metrics } from "#server/metrics.ts";
import {
  type Fault,
  MAX_JSON_ANSWER_BYTES,
  parseJsonAnswer,
  readCapped,
  UpstreamFault,
} from "#server/upstream/read-capped.ts";

export type UpstreamClient = ReturnType<typeof createClient<paths>>;

/** The header of the answer the client makes up for a fault, naming it; a real upstream answer never carries it. */
export const FAULT_HEADER = "x-portal-upstream-fault";
export const faultOf = (response: Response): Fault | undefined =>
  (response.headers.get(FAULT_HEADER) as Fault | null) ?? undefined;

const faultAnswer = (fault: Fault) =>
  new Response(null, { status: fault === "timeout" ? 504 : 502, headers: { [FAULT_HEADER]: fault } });

/**
 * openapi-fetch's `fetch`, bounded: the deadline covers the answer's head and its whole body; the body is read within
 * the cap; no redirect is followed. The call itself goes through undici's `request` over one keep-alive agent rather
 * than the global fetch, which wraps each call in WHATWG streams and its own copy of the Request (about half the cost
 * of a page visit's record, measured in docs/performance.md); openapi-fetch still builds the Request and reads the
 * Response.
 */
function boundedFetch(timeoutMs: number): typeof fetch {
  const dispatcher = new Agent();
  return async (input, init) => {
    const signal = AbortSignal.timeout(timeoutMs);
    const request = input instanceof Request ? input : new Request(input, init);
    let answer: Dispatcher.ResponseData;
    try {
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        headers[name] = value;
      });
      const body = request.body === null ? null : Buffer.from(await request.arrayBuffer());
      answer = await undiciRequest(request.url, {
        method: request.method as Dispatcher.HttpMethod,
        headers,
        body,
        signal,
        dispatcher,
      });
    } catch {
      return faultAnswer(signal.aborted ? "timeout" : "unreachable");
    }
    try {
      const { statusCode: status } = answer;
      const contentType = String(answer.headers["content-type"] ?? "");
      const length = answer.headers["content-length"];
      const raw = await readCapped(
        answer.body,
        MAX_JSON_ANSWER_BYTES,
        signal,
        typeof length === "string" ? length : null,
      );
      if (status >= 200 && status < 300) parseJsonAnswer(raw, contentType);
      const empty = raw.length === 0 || status === 204 || status === 304;
      return new Response(empty ? null : new Uint8Array(raw), { status, headers: { "content-type": contentType } });
    } catch (error) {
      answer.body.destroy();
      return faultAnswer(error instanceof UpstreamFault ? error.fault : "unreachable");
    }
  };
}

/** Each call timed and counted by its operation and outcome. */
function metricsMiddleware(metrics: Metrics, operationOf: (method: string, path: string) => string): Middleware {
  const started = new Map<string, number>();
  return {
    onRequest({ id }) {
      started.set(id, performance.now());
    },
    onResponse({ id, request, schemaPath, response }) {
      const seconds = (performance.now() - (started.get(id) ?? performance.now())) / 1000;
      started.delete(id);
      const fault = faultOf(response);
      metrics.upstreamCall(operationOf(request.method, schemaPath), fault ?? response.status, seconds);
    },
  };
}

export function createUpstreamClient(options: {
  baseUrl: string;
  timeoutMs: number;
  metrics: Metrics;
  operationOf: (method: string, path: string) => string;
}): UpstreamClient {
  const client = createClient<paths>({ baseUrl: options.baseUrl, fetch: boundedFetch(options.timeoutMs) });
  client.use(metricsMiddleware(options.metrics, options.operationOf));
  return client;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

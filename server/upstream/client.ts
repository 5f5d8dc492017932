// The server's own typed calls to the upstream (permissions, tracking, readiness) through openapi-fetch: every call
// has a deadline for the whole call, a size cap on its answer, no redirects, and is counted; a fault is an answer. What
// a 401 does is the caller's (server/account/permissions.ts ends the session).
import createClient, { type Middleware } from "openapi-fetch";
import { type Dispatcher, request } from "undici";
import type { paths } from "#openapi/schema.ts";
import type { Metrics } from "#server/plugins/metrics.ts";
import {
  ACCEPT_ENCODING,
  type Fault,
  faultOfError,
  faultStatus,
  MAX_JSON_ANSWER_BYTES,
  type Reads,
  readAnswer,
} from "#server/upstream/answer-reader.ts";
import { type Call, CallRequest, callOf } from "#server/upstream/upstream-call.ts";

export type UpstreamClient = ReturnType<typeof createClient<paths>>;

/** The header of the answer the client makes up for a fault, naming it; a real upstream answer never carries it. */
export const FAULT_HEADER = "x-portal-upstream-fault";
export const faultOf = (response: Response): Fault | undefined =>
  (response.headers.get(FAULT_HEADER) as Fault | null) ?? undefined;

const faultAnswer = (fault: Fault) =>
  new Response(null, { status: faultStatus(fault), headers: { [FAULT_HEADER]: fault } });

/** What of each call's answer is read: set from the call's operation before it leaves (`readsMiddleware`). */
const readsOfCall = new WeakMap<Request, Reads>();

/**
 * openapi-fetch's transport: undici's `request` (the library's plain API) where the platform's `fetch` would be. The
 * call between the typed client's request and its `Response` costs about a quarter of the CPU of `fetch`'s full
 * algorithm and web streams (docs/performance.md), and every signed-in navigation makes one (its visit). Like `fetch`
 * with `redirect: "manual"`, it follows no redirect. The deadline covers the answer's head and its whole body; the body
 * is read within the cap.
 */
function boundedFetch(timeoutMs: number): (input: Request) => Promise<Response> {
  return async (input) => {
    const call = await callOf(input);
    // A controller and a timer this call holds and clears, not AbortSignal.any over AbortSignal.timeout: a garbage
    // collection can take that timeout away (nodejs/node#57736), and the call would wait for undici's own 300 s.
    // The call's own signal is the caller's (shorter) deadline, which holds as well.
    const deadline = new AbortController();
    const { signal } = deadline;
    const timer = setTimeout(() => deadline.abort(), timeoutMs);
    const callerGaveUp = () => deadline.abort();
    if (call.signal?.aborted) callerGaveUp();
    else call.signal?.addEventListener("abort", callerGaveUp, { once: true });
    let answer: Dispatcher.ResponseData | undefined;
    try {
      answer = await request(call.url, {
        method: call.method as Dispatcher.HttpMethod,
        headers: { ...Object.fromEntries(call.headers), "accept-encoding": ACCEPT_ENCODING },
        body: call.body ?? null,
        signal,
      });
      return await responseOf(call, readsOfCall.get(input) ?? "body", answer, signal);
    } catch {
      return faultAnswer(signal.aborted ? "timeout" : "unreachable");
    } finally {
      call.signal?.removeEventListener("abort", callerGaveUp);
      const left = answer && !answer.body.readableEnded && !signal.aborted ? answer.body : undefined;
      // An answer not read to its end (a status read alone, a refusal, one cut off) is drained within the cap and the
      // call's deadline, which lets go of its connection when either is passed. Destroying one that had all arrived, as
      // a page visit's answer has, made an error and its stack for nothing: a quarter of the call's CPU.
      if (left)
        left
          .dump({ limit: MAX_JSON_ANSWER_BYTES, signal })
          .catch(() => {})
          .finally(() => clearTimeout(timer));
      else {
        clearTimeout(timer);
        if (answer && !answer.body.readableEnded) answer.body.on("error", () => {}).destroy();
      }
    }
  };
}

/**
 * The answer as server/upstream/answer-reader.ts reads it, as the `Response` openapi-fetch reads: the body it parsed,
 * written again as JSON (or none: `Content-Length: 0`, so openapi-fetch parses nothing), so that the answer is decoded
 * and parsed in one place only. A fault answer names why.
 */
async function responseOf(
  call: Call,
  reads: Reads,
  answer: Dispatcher.ResponseData,
  signal: AbortSignal,
): Promise<Response> {
  const { statusCode: status, headers, body } = answer;
  try {
    // A HEAD's (or a 204's or 304's) Content-Length is the resource's, not a body's.
    const bodiless = call.method === "HEAD" || status === 204 || status === 304;
    const parsed = await readAnswer({ status, headers, bodiless }, body, reads, signal);
    const text = parsed === undefined || bodiless ? null : JSON.stringify(parsed);
    const length = text === null ? "0" : String(Buffer.byteLength(text));
    return new Response(text, { status, headers: { "content-type": "application/json", "content-length": length } });
  } catch (error) {
    return faultAnswer(faultOfError(error));
  }
}

/** Each call's operation says what of its answer is read (server/upstream/answer-reader.ts). */
function readsMiddleware(readsOf: (method: string, path: string) => Reads): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      readsOfCall.set(request, readsOf(request.method, schemaPath));
    },
  };
}

/** Each call timed (`performance.now()`: a duration, not the app's clock) and counted by its operation and outcome. */
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
  /** What of each call's success answer is read, as its operation says; unset: its body, the strict default. */
  readsOf?: (method: string, path: string) => Reads;
}): UpstreamClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: { accept: "application/json" }, // the portal reads JSON, and says so
    fetch: boundedFetch(options.timeoutMs),
    Request: CallRequest,
  });
  client.use(
    readsMiddleware(options.readsOf ?? (() => "body")),
    metricsMiddleware(options.metrics, options.operationOf),
  );
  return client;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A call of an operation chosen at run time (an action's row): its input already checked against its schemas. */
export type CallOf = {
  params: { path: Record<string, string>; query: Record<string, string> };
  body: unknown;
  headers: Record<string, string>;
};
export type Called = { response: Response; data?: unknown; error?: unknown };

/** The one client's call of `method path`, typed by what it is given, not by a path known when the code is written. */
export const callOperation = (client: UpstreamClient, method: string, path: string, init: CallOf): Promise<Called> =>
  (client.request as unknown as (method: string, path: string, init: CallOf) => Promise<Called>)(method, path, init);

// One call to the upstream: bounded in time, answer parsed as JSON when not empty, faults named not thrown.
// undici's own request API over a keep-alive pool: the WHATWG fetch wrapper costs several times more per call.
import { Agent, request } from "undici";
import type { Metrics } from "#server/metrics.ts";

export type UpstreamAnswer =
  | { kind: "answer"; status: number; ok: boolean; body: unknown; contentType: string; raw: Buffer }
  | { kind: "fault"; fault: "unreachable" | "timeout" };

export type UpstreamCall = {
  method: string;
  url: string;
  token?: string | undefined;
  body?: unknown;
  timeoutMs: number;
};

/** Connections to the upstream stay open between calls; idle ones close before a typical upstream's own timeout. */
const pool = new Agent({ keepAliveTimeout: 4_000, connections: 256 });

export async function callUpstream({ method, url, token, body, timeoutMs }: UpstreamCall): Promise<UpstreamAnswer> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  try {
    const response = await request(url, {
      method: method as "GET",
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      // No timer of its own per call: undici bounds the wait for the answer's head, then each wait for its body.
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      dispatcher: pool,
    });
    const raw = Buffer.from(await response.body.arrayBuffer());
    const contentType = String(response.headers["content-type"] ?? "");
    const status = response.statusCode;
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

/** A call as the portal's routes make it: the operation it is (for the metrics) and the path on the upstream. */
export type UpstreamRequest = Omit<UpstreamCall, "url" | "timeoutMs"> & { operation: string; path: string };
export type Upstream = (call: UpstreamRequest) => Promise<UpstreamAnswer>;

/** The portal's one way to the upstream: its address, its time limit and the metrics of every call. */
export function upstreamCaller(baseUrl: string, timeoutMs: number, metrics: Metrics): Upstream {
  return async ({ operation, path, ...call }) => {
    const started = performance.now();
    const answer = await callUpstream({ ...call, url: `${baseUrl}${path}`, timeoutMs });
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

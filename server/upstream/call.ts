// One call to the upstream: bounded in time, answer parsed as JSON when not empty, faults named not thrown.
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

export async function callUpstream({ method, url, token, body, timeoutMs }: UpstreamCall): Promise<UpstreamAnswer> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  try {
    const response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "manual",
    });
    const raw = Buffer.from(await response.arrayBuffer());
    const contentType = response.headers.get("content-type") ?? "";
    return {
      kind: "answer",
      status: response.status,
      ok: response.ok,
      body: parseJson(raw, contentType),
      contentType,
      raw,
    };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    return { kind: "fault", fault: timedOut ? "timeout" : "unreachable" };
  }
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

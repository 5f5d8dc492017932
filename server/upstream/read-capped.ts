// Reads an upstream answer's bytes whole, within a size cap and the call's deadline: more, or later, is a fault.
export const MAX_JSON_ANSWER_BYTES = 1024 * 1024;
export const MAX_PDF_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * `wrong-shape`: JSON, but not of the shape openapi/portal.yaml declares (server/upstream/answer-shape.ts); `redirect`:
 * a 3xx (the API answers, it never redirects); `bad-status`: a status line out of HTTP's range.
 */
export type Fault = "timeout" | "unreachable" | "too-large" | "not-json" | "wrong-shape" | "redirect" | "bad-status";

/** How the portal answers any fault of the upstream: 504 past the deadline, 502 for every other. */
export const faultStatus = (fault: Fault): 502 | 504 => (fault === "timeout" ? 504 : 502);

/**
 * The fault behind a proxied call's error: the proxy marks a call past its deadline with status 504, and an answer
 * whose status line it could not pass on (out of HTTP's range) with its bad-gateway error.
 */
export const proxyFault = (error: unknown): "timeout" | "unreachable" | "bad-status" => {
  const { statusCode, code } = (error ?? {}) as { statusCode?: number; code?: string };
  if (code === "FST_REPLY_FROM_BAD_GATEWAY") return "bad-status";
  return statusCode === 504 ? "timeout" : "unreachable";
};

export class UpstreamFault extends Error {
  constructor(readonly fault: Fault) {
    super(`upstream fault: ${fault}`);
  }
}

/**
 * The body's bytes; a `Content-Length` over the cap is refused before any is read, and the deadline ends the read
 * when it passes, not when the next byte comes: an upstream dripping a byte now and then is cut off on time.
 */
export async function readCapped(
  body: AsyncIterable<Uint8Array> | null,
  maxBytes: number,
  signal: AbortSignal,
  declaredLength?: string | null,
): Promise<Buffer> {
  if (declaredLength && Number(declaredLength) > maxBytes) throw new UpstreamFault("too-large");
  if (!body) return Buffer.alloc(0);
  if (signal.aborted) throw new UpstreamFault("timeout");
  const chunks: Uint8Array[] = [];
  let total = 0;
  const iterator = body[Symbol.asyncIterator]();
  let onAbort = () => {};
  const deadline = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(new UpstreamFault("timeout"));
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), deadline]);
      if (next.done) break;
      total += next.value.byteLength;
      if (total > maxBytes) throw new UpstreamFault("too-large");
      chunks.push(next.value);
    }
  } catch (error) {
    void iterator.return?.().catch(() => {}); // the stream is destroyed: no more is read
    if (error instanceof UpstreamFault) throw error;
    throw new UpstreamFault(signal.aborted ? "timeout" : "unreachable");
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
  return Buffer.concat(chunks, total);
}

/** The fault a failed read stands for: its own, or an upstream that went away. */
export const faultOfError = (error: unknown): Fault => (error instanceof UpstreamFault ? error.fault : "unreachable");

// Reads an upstream answer's body whole, within a size cap and the call's deadline: more, or later, is a fault.
export const MAX_JSON_ANSWER_BYTES = 1024 * 1024;
export const MAX_PDF_ANSWER_BYTES = 16 * 1024 * 1024;

export type Fault = "timeout" | "unreachable" | "too-large" | "not-json";

export class UpstreamFault extends Error {
  constructor(readonly fault: Fault) {
    super(`upstream fault: ${fault}`);
  }
}

/** The body's bytes; a `Content-Length` over the cap is refused before any is read. */
export async function readCapped(
  body: AsyncIterable<Uint8Array> | null,
  maxBytes: number,
  /** The call's deadline: an AbortSignal, or anything that says whether it has passed. */
  signal: { readonly aborted: boolean },
  declaredLength?: string | null,
): Promise<Buffer> {
  if (declaredLength && Number(declaredLength) > maxBytes) throw new UpstreamFault("too-large");
  if (!body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of body) {
      if (signal.aborted) throw new UpstreamFault("timeout");
      total += chunk.byteLength;
      if (total > maxBytes) throw new UpstreamFault("too-large");
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof UpstreamFault) throw error;
    throw new UpstreamFault(signal.aborted ? "timeout" : "unreachable");
  }
  if (signal.aborted) throw new UpstreamFault("timeout");
  return Buffer.concat(chunks, total);
}

/** SPEC.md 7: a non-empty JSON answer must parse; anything else is an upstream fault. */
export function parseJsonAnswer(raw: Buffer, contentType: string): unknown {
  if (raw.length === 0) return undefined;
  if (!/json/i.test(contentType)) throw new UpstreamFault("not-json");
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    throw new UpstreamFault("not-json");
  }
}

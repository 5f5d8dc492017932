// The one reader of upstream answers, for the forwarded calls, the server's own calls and the documents alike: what of
// each answer is read (its status, or its body too), how a body is decoded and parsed, and when an answer is a fault.
import { MAX_JSON_ANSWER_BYTES, readCapped, UpstreamFault } from "#server/upstream/read-capped.ts";

/**
 * What the portal reads of an operation's success answer: its body (`body`), or its status alone (`status`), as the
 * description says of each operation (server/upstream/operations.ts: requirements 4.2 and 7.2 read generate, reset,
 * the password test and change, and the page visit by their status). A body that is not read is never parsed, so any
 * body (text, a BOM, a line break, none) is a success that says nothing.
 */
export type Reads = "body" | "status";

/**
 * The statuses whose requirements 8 text the status alone decides: their bodies are never read, so a body of any size,
 * speed or kind changes nothing. A 401 is the refusal of the token (requirements 4.5) by its status line alone.
 */
export const statusDecides = (status: number): boolean => [401, 403, 404, 500].includes(status);

/** The UTF-8 byte-order mark some servers put before a JSON text (RFC 8259 allows a reader to ignore it). */
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * requirements 7.1: a non-empty answer is parsed as JSON, whatever its `Content-Type` says; a byte-order mark is
 * dropped, and a body of nothing but white space is no body (undefined), never a fault. Another text is a fault.
 */
export function parseJson(raw: Buffer): unknown {
  const bytes = raw.subarray(0, BOM.length).equals(BOM) ? raw.subarray(BOM.length) : raw;
  const text = bytes.toString("utf8");
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new UpstreamFault("not-json");
  }
}

/** A failed answer's body, for requirements 8's fields: one that is not JSON simply has none. */
function parseLoosely(raw: Buffer): unknown {
  try {
    return parseJson(raw);
  } catch {
    return undefined;
  }
}

/**
 * Whether a body came in the only encoding the portal asks for (`accept-encoding: identity`): one compressed anyway is
 * not read, never inflated (no bomb to bound), and so is a fault where its body is needed.
 */
export const plainEncoding = (encoding: unknown): boolean =>
  String(encoding ?? "")
    .split(",")
    .every((name) => ["", "identity"].includes(name.trim().toLowerCase()));

/** What the portal asks of every answer's encoding: none, so that what it reads is what was sent. */
export const ACCEPT_ENCODING = "identity";

export type AnswerHead = {
  status: number;
  headers: Record<string, unknown>;
  /** The answer to a HEAD, or a 204 or 304: its `Content-Length` is not a body's. */
  bodiless?: boolean;
};

/**
 * The body the portal reads of an answer, parsed (undefined: none, or none read); throws an `UpstreamFault` when the
 * answer is one. A success whose operation reads its status alone, and a status that decides its own text, are never
 * read. A redirect or a status out of HTTP's range is a fault. A failed answer's body is read for requirements 8's
 * fields only: one that is too large, too late or not JSON just has none, and the status still decides.
 */
export async function readAnswer(
  head: AnswerHead,
  body: AsyncIterable<Uint8Array> | null,
  reads: Reads,
  signal: AbortSignal,
): Promise<unknown> {
  const { status, headers } = head;
  if (!Number.isInteger(status) || status < 200 || status > 599) throw new UpstreamFault("bad-status");
  if (status < 300 && reads === "status") return undefined;
  if (status >= 300 && status < 400) throw new UpstreamFault("redirect"); // the API answers, it never redirects
  if (statusDecides(status)) return undefined;
  const declared = head.bodiless ? null : (headers["content-length"] as string | undefined);
  const plain = plainEncoding(headers["content-encoding"]);
  if (status < 300) {
    if (!plain) throw new UpstreamFault("not-json");
    return parseJson(await readCapped(body, MAX_JSON_ANSWER_BYTES, signal, declared));
  }
  if (!plain) return undefined;
  try {
    return parseLoosely(await readCapped(body, MAX_JSON_ANSWER_BYTES, signal, declared));
  } catch {
    return undefined;
  }
}

/** An answer's stream as the proxy and undici hand it over. */
export type AnswerStream = AsyncIterable<Uint8Array> & {
  readableEnded?: boolean;
  on(event: "error", listener: () => void): unknown;
  destroy(): void;
};

/** A body not read, or not to its end, lets its connection go; the error that undici's stream then emits is ours. */
export function letGo(stream: AnswerStream): void {
  if (stream.readableEnded) return;
  stream.on("error", () => {});
  stream.destroy();
}

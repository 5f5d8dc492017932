// The one reader of upstream answers, for the forwarded calls, the server's own calls and the documents alike: what of
// each answer is read (its status, or its body too), its bytes whole within a size cap and the call's deadline (more,
// or later, is a fault), how a body is decoded and parsed, and when an answer is a fault. The shape every success
// answer must have before the portal uses it: ajv (the JSON Schema engine Fastify itself runs) compiles the validators
// from openapi/portal.yaml's response schemas, never written again here.
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { JsonSchema, Operation } from "#server/upstream/operations.ts";

export const MAX_JSON_ANSWER_BYTES = 1024 * 1024;
export const MAX_PDF_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * `wrong-shape`: JSON, but not of the shape openapi/portal.yaml declares (`answerProblem`); `redirect`:
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
  // A failed answer's body, for requirements 8's fields: one too large, too late or not JSON simply has none.
  try {
    return parseJson(await readCapped(body, MAX_JSON_ANSWER_BYTES, signal, declared));
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

/** What was wrong with an answer: the field (a JSON pointer, `""` for the whole answer) and the schema's rule. */
export type ShapeProblem = { field: string; rule: string };

// The description's own words (`description`, `example`) are not validation keywords: strict mode would refuse them.
const ajv = new Ajv({ strict: false, allErrors: false });
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

function validatorOf(schema: JsonSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** The field an error points at; a missing property is named itself, not its parent. */
function fieldOf(error: ErrorObject): string {
  const missing = error.keyword === "required" ? (error.params as { missingProperty?: string }).missingProperty : "";
  return missing ? `${error.instancePath}/${missing}` : error.instancePath;
}

/**
 * Undefined when `body` has the shape the operation's success answer declares (or it declares none), or is no body at
 * all (an empty answer, requirements 7.1: what reads it finds no token, no verdict, no permissions); else the first
 * field that is wrong. The value itself is never reported: it may be a token.
 */
export function answerProblem(operation: Operation, body: unknown): ShapeProblem | undefined {
  return operation.answer && body !== undefined ? shapeProblem(operation.answer, body) : undefined;
}

/** Undefined when `value` fits `schema` (a schema of openapi/portal.yaml, maybe narrowed); else its first wrong field. */
export function shapeProblem(schema: JsonSchema, value: unknown): ShapeProblem | undefined {
  const validate = validatorOf(schema);
  if (validate(value)) return undefined;
  const [error] = validate.errors ?? [];
  return error ? { field: fieldOf(error), rule: error.keyword } : { field: "", rule: "schema" };
}

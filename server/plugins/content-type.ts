// What a request's Content-Type is, decided once: by the strict parser the proxy itself uses when it forwards a body,
// so a type the route admits is never one the forward then refuses.

import { parse } from "fast-content-type-parse";
import type { FastifyRequest } from "fastify";
import { Refusal } from "#server/plugins/errors.ts";

/** The media type, lower-cased without its parameters; undefined for a header that is not a valid Content-Type. */
export function mediaType(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  try {
    return parse(header).type;
  } catch {
    return undefined;
  }
}

/** A form's fields, as a page's own form posts them. */
export const FORM_TYPE = "application/x-www-form-urlencoded";

/**
 * A route's `onRequest` for the forms a person posts (the pages' and the sandbox's): the media type decides before the
 * body is read (JSON, a Content-Type that is not valid, none), with a 415; JSON is the islands' `/api`'s, never a form's.
 */
export async function requireForm(request: FastifyRequest): Promise<void> {
  if (mediaType(request.headers["content-type"]) !== FORM_TYPE)
    throw new Refusal(415, `Unsupported Media Type: a form posts ${FORM_TYPE}`);
}

/** A JSON body, as the islands send it (parameters such as charset allowed, when well formed). */
export const isJson = (header: string | undefined): boolean => mediaType(header) === "application/json";

/** Whether a request carries a body (RFC 9112 6.3): a length above 0, or a chunked one. */
export const hasBody = (headers: { "content-length"?: string; "transfer-encoding"?: string }): boolean =>
  headers["transfer-encoding"] !== undefined ||
  (headers["content-length"] !== undefined && headers["content-length"] !== "0");

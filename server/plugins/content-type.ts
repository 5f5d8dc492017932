// What a request's Content-Type is, decided once: by the strict parser the proxy itself uses when it forwards a body,
// so a type the route admits is never one the forward then refuses.
import { parse } from "fast-content-type-parse";

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

/** A JSON body, as the islands send it (parameters such as charset allowed, when well formed). */
export const isJson = (header: string | undefined): boolean => mediaType(header) === "application/json";

/** Whether a request carries a body (RFC 9112 6.3): a length above 0, or a chunked one. */
export const hasBody = (headers: { "content-length"?: string; "transfer-encoding"?: string }): boolean =>
  headers["transfer-encoding"] !== undefined ||
  (headers["content-length"] !== undefined && headers["content-length"] !== "0");

// The request openapi-fetch builds for each of the server's calls (its `Request` option), kept as it is given: the
// platform's `Request` parses the URL, copies the headers and wraps the body in a stream, which the transport then
// undid: about 11 % of a page view that records a visit and 17 % of the /api password test (docs/performance.md, rows
// 11a and 11b). What of openapi-fetch this relies on is pinned in tests/server/upstream/upstream-call.contract.test.ts.

/** A call as the transport sends it. The server's calls send JSON bodies, serialised already. */
export type Call = {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: string | undefined;
  readonly signal: AbortSignal | undefined;
};

class UpstreamCall implements Call {
  readonly method: string;
  readonly headers: Headers;
  readonly body: string | undefined;
  readonly signal: AbortSignal | undefined;

  constructor(
    readonly url: string,
    init: RequestInit = {},
  ) {
    if (init.body != null && typeof init.body !== "string") throw new TypeError("an upstream call's body is JSON text");
    this.method = init.method ?? "GET";
    this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    this.body = init.body ?? undefined;
    this.signal = init.signal ?? undefined;
  }
}

/** openapi-fetch's `Request` option. It is typed as the platform's class; openapi-fetch constructs it, reads `method`. */
export const CallRequest = UpstreamCall as unknown as typeof Request;

/** The call openapi-fetch built, as the transport reads it: the same object. */
export function callOf(request: Request): Call | Promise<Call> {
  if (!(request instanceof UpstreamCall)) throw new TypeError("an upstream call is built by the typed client");
  return request;
}

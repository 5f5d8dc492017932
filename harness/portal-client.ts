// A browser-like HTTP client of the portal: keeps the session cookie as a browser does and sends the islands' header
// on every request. Two transports, one answer: a Fastify app (requests injected, no port needed) or the address of a
// running portal (real HTTP with fetch). The tests and the benchmarks both use it.
import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from "node:http";
import type { FastifyInstance } from "fastify";
import { CSRF_HEADER } from "#web/protocol/headers.ts";

/** Where the requests go: an app to inject them into, or the base URL of a listening portal. */
export type PortalTarget = FastifyInstance | string;

/** One cookie an answer set, as a browser reads its `Set-Cookie` (the value URL-decoded). */
export type SetCookie = {
  name: string;
  value: string;
  maxAge?: number;
  expires?: Date;
  path?: string;
  domain?: string;
  sameSite?: string;
  secure?: boolean;
  httpOnly?: boolean;
};

/** The same answer whichever the transport. */
export type PortalAnswer = {
  status: number;
  /** Lower-case names; `set-cookie` is always a list. */
  headers: IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON; throws when it is not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: an answer's JSON is whatever the test expects it to be
  json(): any;
  /** The cookies this answer set. */
  cookies: SetCookie[];
};

export type Method = "GET" | "POST" | "PUT" | "DELETE" | "HEAD";

const csrfHeader = CSRF_HEADER.toLowerCase();

/** Who the client is, beyond its cookies. */
export type PortalClientOptions = {
  /**
   * Send the islands' header (default true). A page's own HTML form, a link followed, or a cross-site page posting
   * to the portal sends none.
   */
  islandsHeader?: boolean;
  /** The address the request comes from, as the socket shows it (injected requests only; default 127.0.0.1). */
  remoteAddress?: string;
};

export class PortalClient {
  /** The cookie jar: each cookie's name and its value as the portal set it (URL-decoded, as `SetCookie.value`). */
  cookies = new Map<string, string>();
  /** Every answer received, oldest first. */
  readonly answers: PortalAnswer[] = [];
  /** Sent with every request, before a request's own: a browser's User-Agent, say. */
  headers: Record<string, string> = {};

  constructor(
    readonly target: PortalTarget,
    readonly options: PortalClientOptions = {},
  ) {
    if (options.remoteAddress !== undefined && typeof target === "string")
      throw new Error("a chosen remote address needs an injected portal: a real socket shows its own");
  }

  /** Every Set-Cookie and body seen, so tests can assert that no token ever reached the browser. */
  get seen(): string[] {
    return this.answers.flatMap((answer) => [...(answer.headers["set-cookie"] ?? []), answer.text]);
  }

  /** The `Cookie` header the jar sends ("" when it is empty). */
  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; ");
  }

  /**
   * Another client of `target` (this one's by default) holding a copy of this one's cookies: a second tab, or what
   * someone who copied the cookie replays.
   */
  copy(target: PortalTarget = this.target, options: PortalClientOptions = this.options): PortalClient {
    const copy = new PortalClient(target, options);
    copy.cookies = new Map(this.cookies);
    return copy;
  }

  /**
   * A request with the jar's cookies and the islands' header (unless the options leave it out); `headers` adds to
   * them or replaces them. A body is sent as JSON, as the islands send it, or, given as `URLSearchParams`, as a
   * page's HTML form posts it.
   */
  async request(
    method: Method,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<PortalAnswer> {
    const form = body instanceof URLSearchParams;
    const contentType = form ? "application/x-www-form-urlencoded" : "application/json";
    const sent: Record<string, string> = {
      ...(this.options.islandsHeader === false ? {} : { [csrfHeader]: "1" }),
      ...(body === undefined ? {} : { "content-type": contentType }),
      ...(this.cookies.size > 0 ? { cookie: this.cookieHeader } : {}),
      ...this.headers,
      ...headers,
    };
    const payload = body === undefined ? undefined : form ? body.toString() : JSON.stringify(body);
    const answer =
      typeof this.target === "string"
        ? await fetched(this.target, method, path, sent, payload)
        : await injected(this.target, method, path, sent, payload, this.options.remoteAddress);
    this.answers.push(answer);
    for (const cookie of answer.cookies) {
      if (cookie.value === "" || cookie.maxAge === 0) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return answer;
  }

  /**
   * One request written to the socket as given, which fetch and inject would not send: the path exactly as typed
   * (`..`, `%`, an absolute URL), a method they refuse, a body they would reframe. Only `headers` are sent (not the
   * jar's cookies, not the islands' header), and the answer does not touch the jar; over a URL only.
   */
  async raw(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<PortalAnswer> {
    if (typeof this.target !== "string") throw new Error("a raw request needs a listening portal");
    const { hostname, port } = new URL(this.target);
    const framed = body === undefined ? headers : { "content-length": String(Buffer.byteLength(body)), ...headers };
    const answer = await new Promise<PortalAnswer>((resolve, reject) => {
      const request = httpRequest({ host: hostname, port, method, path, headers: framed }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve(answerOf(response.statusCode ?? 0, response.headers, Buffer.concat(chunks).toString())),
        );
        response.on("error", reject);
      });
      request.on("error", reject);
      request.end(body);
    });
    this.answers.push(answer);
    return answer;
  }

  get(path: string, headers?: Record<string, string>): Promise<PortalAnswer> {
    return this.request("GET", path, undefined, headers);
  }

  post(path: string, body?: unknown, headers?: Record<string, string>): Promise<PortalAnswer> {
    return this.request("POST", path, body, headers);
  }
}

async function injected(
  app: FastifyInstance,
  method: Method,
  url: string,
  headers: Record<string, string>,
  payload: string | undefined,
  remoteAddress: string | undefined,
): Promise<PortalAnswer> {
  const response = await app.inject({
    method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload }),
    ...(remoteAddress === undefined ? {} : { remoteAddress }),
  });
  return answerOf(response.statusCode, headersOf(response.headers), response.body);
}

async function fetched(
  baseUrl: string,
  method: Method,
  path: string,
  headers: Record<string, string>,
  payload: string | undefined,
): Promise<PortalAnswer> {
  const response = await fetch(`${baseUrl}${path}`, { method, redirect: "manual", headers, body: payload ?? null });
  const received: IncomingHttpHeaders = {};
  for (const [name, value] of response.headers) if (name !== "set-cookie") received[name] = value;
  const setCookies = response.headers.getSetCookie();
  if (setCookies.length > 0) received["set-cookie"] = setCookies;
  return answerOf(response.status, received, await response.text());
}

/** An injected answer's headers as a received answer has them: text values, `set-cookie` a list. */
export function headersOf(headers: OutgoingHttpHeaders): IncomingHttpHeaders {
  const received: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (name === "set-cookie") received["set-cookie"] = [value].flat().map(String);
    else received[name] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  return received;
}

function answerOf(status: number, headers: IncomingHttpHeaders, text: string): PortalAnswer {
  return {
    status,
    headers,
    text,
    json: () => JSON.parse(text),
    cookies: (headers["set-cookie"] ?? []).map(parseSetCookie),
  };
}

/** One `Set-Cookie` header: `name=value` and its attributes. */
export function parseSetCookie(header: string): SetCookie {
  const [pair = "", ...attributes] = header.split(";");
  const equals = pair.indexOf("=");
  const name = (equals < 0 ? "" : pair.slice(0, equals)).trim();
  const raw = (equals < 0 ? pair : pair.slice(equals + 1)).trim();
  let value = raw;
  try {
    value = decodeURIComponent(raw);
  } catch {
    // kept as written
  }
  const cookie: SetCookie = { name, value };
  for (const attribute of attributes) {
    const [key = "", ...rest] = attribute.split("=");
    const setting = rest.join("=").trim();
    switch (key.trim().toLowerCase()) {
      case "max-age":
        cookie.maxAge = Number.parseInt(setting, 10);
        break;
      case "expires":
        cookie.expires = new Date(setting);
        break;
      case "path":
        cookie.path = setting;
        break;
      case "domain":
        cookie.domain = setting;
        break;
      case "samesite":
        cookie.sameSite = setting;
        break;
      case "secure":
        cookie.secure = true;
        break;
      case "httponly":
        cookie.httpOnly = true;
        break;
    }
  }
  return cookie;
}

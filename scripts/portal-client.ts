// A browser-like HTTP client of a running portal: keeps the session cookie, sends the islands' header. The
// integration tests and the benchmarks both use it.
export class PortalClient {
  cookie = "";
  /** Every Set-Cookie and body seen, so tests can assert that no token ever reached the browser. */
  readonly seen: string[] = [];

  constructor(readonly baseUrl: string) {}

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      redirect: "manual",
      headers: {
        ...(method === "GET" ? {} : { "x-portal-request": "1" }),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...headers,
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await response.text();
    const setCookie = response.headers.get("set-cookie");
    if (setCookie) {
      this.seen.push(setCookie);
      const [pair] = setCookie.split(";");
      this.cookie = pair?.endsWith("=") ? "" : (pair ?? "");
    }
    this.seen.push(text);
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request("GET", path, undefined, headers);
  }

  post(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request("POST", path, body, headers);
  }
}

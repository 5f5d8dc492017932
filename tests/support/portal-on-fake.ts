// The real portal in front of the scriptable fake upstream (scripts/fake-upstream.ts, which the benchmarks use too):
// signed-in and pending sessions for a test file, Set-Cookie headers, and raw HTTP requests.
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { after, before, beforeEach } from "node:test";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import {
  type Answer,
  type FakeUpstream,
  happyUpstream,
  startFakeUpstream,
  type UpstreamScript,
} from "#scripts/fake-upstream.ts";
import { type RunningPortal, startPortal } from "#tests/support/portal.ts";
import { PortalVisitor } from "#tests/support/sign-in.ts";

export * from "#scripts/fake-upstream.ts";

export type PortalOnFake = {
  portal: RunningPortal;
  upstream: FakeUpstream;
  app: FastifyInstance;
  /** The portal's address when it listens. */
  url: string;
  close(): Promise<void>;
};

/** The real portal in front of a fake upstream; it listens only when asked (injection is faster). */
export async function portalOnFake(
  answer: Answer = happyUpstream(),
  options: { env?: NodeJS.ProcessEnv; now?: () => number; listen?: boolean } = {},
): Promise<PortalOnFake> {
  const upstream = await startFakeUpstream(answer);
  const portal = await startPortal({
    env: { UPSTREAM_URL: upstream.url, ...options.env },
    listen: options.listen ?? false,
    ...(options.now ? { now: options.now } : {}),
  });
  return {
    portal,
    upstream,
    app: portal.app,
    url: portal.url,
    close: async () => {
      await portal.close();
      await upstream.close();
    },
  };
}

/** Password then code through the portal, against a fake upstream that accepts both. */
export async function signInOnFake(
  app: FastifyInstance,
  site: "client" | "vendor" = "client",
): Promise<{ visitor: PortalVisitor; answers: LightMyRequestResponse[] }> {
  const visitor = new PortalVisitor(app);
  const login =
    site === "client" ? { shortname: "ACME", username: "alice", password: "pw" } : { username: "vera", password: "pw" };
  const answers = [
    await visitor.post(`/api/auth/${site}`, login),
    await visitor.post(`/api/web/${site}/mfa/generate`),
    await visitor.post(`/api/web/${site}/mfa/validate/123456`),
  ];
  return { visitor, answers };
}

export type SessionsOnFake = {
  readonly fake: PortalOnFake;
  readonly signedInCookie: string;
  readonly pendingCookie: string;
};

/**
 * For a test file: a listening portal on a fake upstream, with one signed-in and one pending session, and the
 * upstream's recorded calls cleared before each test (so a test sees only the calls it caused).
 */
export function sessionsOnFake(script: UpstreamScript = {}): SessionsOnFake {
  let fake: PortalOnFake | undefined;
  let signedInCookie = "";
  let pendingCookie = "";
  before(async () => {
    fake = await portalOnFake(happyUpstream(script), { listen: true });
    signedInCookie = (await signInOnFake(fake.app)).visitor.cookieHeader;
    const pending = new PortalVisitor(fake.app);
    await pending.post("/api/auth/client", { shortname: "ACME", username: "alice", password: "pw" });
    pendingCookie = pending.cookieHeader;
  });
  beforeEach(() => {
    if (fake) fake.upstream.calls.length = 0;
  });
  after(() => fake?.close());
  return {
    get fake() {
      if (!fake) throw new Error("the fake upstream has not started");
      return fake;
    },
    get signedInCookie() {
      return signedInCookie;
    },
    get pendingCookie() {
      return pendingCookie;
    },
  };
}

/** The `Set-Cookie` headers of an injected answer, as strings. */
export function setCookies(response: LightMyRequestResponse): string[] {
  const header = response.headers["set-cookie"];
  if (header === undefined) return [];
  return Array.isArray(header) ? header : [String(header)];
}

export type RawAnswer = { status: number; headers: IncomingHttpHeaders; body: string };

/** One HTTP request with the path sent exactly as written (fetch and inject would normalise `..` and the like). */
export function rawHttp(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  const framed = body === undefined ? headers : { "content-length": String(Buffer.byteLength(body)), ...headers };
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: hostname, port, method, path, headers: framed }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(body);
  });
}

// The real portal in front of the scriptable fake upstream (harness/fake-upstream.ts, which the benchmarks use too):
// signed-in and pending sessions for a test file, and Set-Cookie headers.
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http";
import { after, before, beforeEach } from "node:test";
import type { FastifyInstance } from "fastify";
import {
  type Answer,
  type FakeUpstream,
  happyUpstream,
  startFakeUpstream,
  type UpstreamScript,
} from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, type CodeSource, fakeUpstreamCode, signIn } from "#harness/sign-in.ts";
import { type PortalInProcess, type PortalOnUpstreamOptions, startPortalInProcess } from "#tests/support/portal.ts";

export type PortalOnFake = {
  portal: PortalInProcess;
  upstream: FakeUpstream;
  app: FastifyInstance;
  /** Where a sign-in finds its code: the fake upstream passes a fixed one. */
  code: CodeSource;
  /** The portal's address when it listens. */
  url: string;
  close(): Promise<void>;
};

/** The real portal in front of a fake upstream, and no sandbox; it listens only when asked (injection is faster). */
export async function portalOnFake(
  answer: Answer = happyUpstream(),
  { listen = false, ...options }: Omit<PortalOnUpstreamOptions, "upstreamUrl"> = {},
): Promise<PortalOnFake> {
  const upstream = await startFakeUpstream(answer);
  const portal = await startPortalInProcess({ upstreamUrl: upstream.url, listen, ...options });
  return {
    portal,
    upstream,
    app: portal.app,
    code: fakeUpstreamCode,
    url: portal.url,
    close: async () => {
      await portal.close();
      await upstream.close();
    },
  };
}

/**
 * For a test file: a function that starts a portal on a fake upstream as `portalOnFake` does, registering an `after`
 * hook that closes every portal it started once the file's tests are done (so a test need not close its own).
 */
export function portalsOnFakeForFile(): typeof portalOnFake {
  const portals: PortalOnFake[] = [];
  after(() => Promise.all(portals.map((portal) => portal.close())));
  return async (...args) => {
    const portal = await portalOnFake(...args);
    portals.push(portal);
    return portal;
  };
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
    signedInCookie = (await signIn(fake.app, accounts.alice, fake.code)).cookieHeader;
    const pending = new PortalClient(fake.app);
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

/** The `Set-Cookie` headers of an answer (a client's or an injected one), as strings. */
export function setCookies(answer: { headers: IncomingHttpHeaders | OutgoingHttpHeaders }): string[] {
  const header = answer.headers["set-cookie"];
  if (header === undefined) return [];
  return Array.isArray(header) ? header : [String(header)];
}

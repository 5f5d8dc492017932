// A session of its own for a test of the session's fields and writes: a small app with the portal's cookie (sealed
// with @fastify/secure-session under the tests' key, its auth read at each request as the session plugin reads it) and
// one route that runs the step a test gives it, so the test reads what the cookie then holds, as a browser keeps it.
import secureSession from "@fastify/secure-session";
import Fastify, { type FastifyRequest } from "fastify";
import { readAuth, type SessionFields } from "#server/session/fields.ts";
import { sessionCodec } from "#tests/support/session-codec.ts";

const KEYS = [Buffer.from("a".repeat(64), "hex")];
const COOKIE = "portal-session";
const FIELDS: (keyof SessionFields)[] = [
  "auth",
  "perms",
  "taxBridge",
  "flash",
  "born",
  "seen",
  "sid",
  "passwordTested",
  "codeSentAt",
];

export type SessionApp = {
  /**
   * Runs `step` in a request carrying the cookie kept so far, and keeps the cookie its answer sets: what the step
   * returned, what the cookie then holds, and whether the answer wrote the cookie at all.
   */
  run<T>(step: (request: FastifyRequest) => T): Promise<{ result: T; held: Partial<SessionFields>; written: boolean }>;
  /** Starts the browser over with a cookie holding `fields` (none when undefined). */
  seed(fields: Partial<SessionFields> | undefined): void;
  /** The raw cookie value the browser now keeps, or undefined when it keeps none. */
  cookie(): string | undefined;
  close(): Promise<void>;
};

export async function startSessionApp(): Promise<SessionApp> {
  const codec = await sessionCodec({ sessionKeys: KEYS });
  const app = Fastify({ logger: false });
  await app.register(secureSession, { key: KEYS, cookieName: COOKIE, cookie: { path: "/", httpOnly: true } });
  app.decorateRequest("auth", undefined);
  app.addHook("onRequest", (request, _reply, done) => {
    request.auth = readAuth(request);
    done();
  });
  let step: (request: FastifyRequest) => unknown = () => undefined;
  let outcome: unknown;
  app.get("/step", async (request) => {
    outcome = step(request);
    return "";
  });
  await app.ready();
  let cookie: string | undefined;

  const holds = (value: string | undefined): Partial<SessionFields> => {
    const session = value ? codec.decode(value) : null;
    if (!session) return {};
    const held: Record<string, unknown> = {};
    for (const key of FIELDS) if (session.get(key) !== undefined) held[key] = session.get(key);
    return held as Partial<SessionFields>;
  };

  return {
    async run<T>(next: (request: FastifyRequest) => T) {
      step = next;
      const answer = await app.inject({
        method: "GET",
        url: "/step",
        headers: cookie ? { cookie: `${COOKIE}=${cookie}` } : {},
      });
      if (answer.statusCode !== 200) throw new Error(`the step failed: ${answer.statusCode} ${answer.body}`);
      const set = answer.cookies.find((line) => line.name === COOKIE);
      // A cleared cookie comes back empty and already expired: the browser then keeps none.
      if (set) cookie = set.value === "" ? undefined : encodeURIComponent(set.value);
      return { result: outcome as T, held: holds(cookie), written: set !== undefined };
    },
    seed(fields) {
      cookie = fields ? codec.encode(fields) : undefined;
    },
    cookie: () => cookie,
    close: () => app.close(),
  };
}

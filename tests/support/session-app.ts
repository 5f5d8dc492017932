// A session of its own for a test of the session's fields and writes: a small app whose requests hold their session as
// the portal's do (server/session/plugin.ts), its cookie sealed with @fastify/secure-session under the tests' key and
// carrying the record's id and the next page's notice, the record read from a MemoryLedger as each request arrives and
// written back once as it answers, and one route that runs the step a test gives it. The test then reads what the
// session holds, as the next request would find it: the record the cookie names, and the cookie's notice.
import { randomUUID } from "node:crypto";
import secureSession from "@fastify/secure-session";
import Fastify, { type FastifyRequest } from "fastify";
import { mayWrite, type SessionFields } from "#server/session/fields.ts";
import type { Ending, SessionRecord } from "#server/session/record.ts";
import { MemoryLedger } from "#server/stores/ledger.ts";
import { type CookieFields, sessionCodec } from "#tests/support/session-codec.ts";

const KEYS = [Buffer.from("a".repeat(64), "hex")];
const COOKIE = "portal-session";
/** Long enough that a record born at any time a test names is still held (the ledger drops it past its lifetime). */
const LIFETIME_MS = 100 * 365 * 24 * 3600_000;

/** When a seeded record began and was last seen, unless the seed says otherwise. */
export const SEEDED_AT = 1_700_000_000_000;

/** What a seeded record holds unless the seed says otherwise: a signed-in session of alice's. */
export const seededRecord: SessionRecord = {
  person: "client/acme/alice",
  auth: {
    stage: "signed-in",
    site: "client",
    userName: "alice",
    loginMessage: "Success",
    token: "token-of-alice",
    company: "ACME",
  },
  born: SEEDED_AT,
  seen: SEEDED_AT,
  device: "Chrome on Windows",
  address: "192.0.2.1",
};

/** What the session holds: its record's fields (its ending too, once it ended) and the cookie's notice. */
export type Held = Partial<Omit<SessionFields, "sid">> & { ended?: Ending };

export type SessionApp = {
  /**
   * Runs `step` in a request carrying the cookie kept so far, and keeps the cookie its answer sets: what the step
   * returned, what the session then holds and the id its cookie carries, and whether the answer wrote the session at
   * all (`written`): its record back to the ledger (`recordWritten`), or its cookie (`cookieWritten`).
   */
  run<T>(step: (request: FastifyRequest) => T): Promise<{
    result: T;
    held: Held;
    sid: string | undefined;
    written: boolean;
    recordWritten: boolean;
    cookieWritten: boolean;
  }>;
  /**
   * Starts the browser over with a session: a record in the ledger holding `fields` over `seededRecord`, under
   * `fields.sid` or a new id, and a cookie carrying its id and `fields.flash`. Answers the record's id. Undefined: no
   * cookie at all.
   */
  seed(fields: Partial<SessionFields> | undefined): string | undefined;
  /** Starts the browser over with a cookie alone, holding `fields`: no record (an anonymous notice, or an unknown id). */
  seedCookie(fields: Partial<CookieFields>): void;
  /** The raw cookie value the browser now keeps (as a Cookie header carries it), or undefined when it keeps none. */
  cookie(): string | undefined;
  /** The ledger the app's requests read and write. */
  readonly ledger: MemoryLedger;
  close(): Promise<void>;
};

export async function startSessionApp(): Promise<SessionApp> {
  const codec = await sessionCodec({ sessionKeys: KEYS });
  const ledger = new MemoryLedger(LIFETIME_MS, Date.now);
  const app = Fastify({ logger: false });
  let recordWritten = false;
  // Before the cookie's own onSend, as in the portal; the record the request changed is written back once.
  app.addHook("onSend", (request, _reply, payload, done) => {
    const record = request.record;
    if (record?.changed && mayWrite(request)) {
      ledger.write(record.id, record.value);
      recordWritten = true;
    }
    done(null, payload);
  });
  await app.register(secureSession, { key: KEYS, cookieName: COOKIE, cookie: { path: "/", httpOnly: true } });
  app.decorate("ledger", ledger);
  app.decorateRequest("auth", undefined);
  app.decorateRequest("record", undefined);
  // The record the cookie names, read as the session plugin reads it: an ended one holds no auth.
  app.addHook("onRequest", (request, _reply, done) => {
    const id = request.session.get("sid");
    const found = id === undefined ? undefined : ledger.read(id);
    if (id !== undefined && found) {
      request.record = { id, value: found, changed: false };
      request.auth = found.ended ? undefined : found.auth;
    }
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

  const holds = (value: string | undefined): { held: Held; sid: string | undefined } => {
    const session = value ? codec.decode(value) : null;
    const sid = session?.get("sid");
    const flash = session?.get("flash");
    const record = sid === undefined ? undefined : ledger.read(sid);
    return { held: { ...record, ...(flash === undefined ? {} : { flash }) }, sid };
  };

  return {
    async run<T>(next: (request: FastifyRequest) => T) {
      step = next;
      recordWritten = false;
      const answer = await app.inject({
        method: "GET",
        url: "/step",
        headers: cookie ? { cookie: `${COOKIE}=${cookie}` } : {},
      });
      if (answer.statusCode !== 200) throw new Error(`the step failed: ${answer.statusCode} ${answer.body}`);
      const set = answer.cookies.find((line) => line.name === COOKIE);
      // A cleared cookie comes back empty and already expired: the browser then keeps none.
      if (set) cookie = set.value === "" ? undefined : encodeURIComponent(set.value);
      const cookieWritten = set !== undefined;
      return {
        result: outcome as T,
        ...holds(cookie),
        written: recordWritten || cookieWritten,
        recordWritten,
        cookieWritten,
      };
    },
    seed(fields) {
      if (!fields) {
        cookie = undefined;
        return undefined;
      }
      const { sid = randomUUID(), flash, ...kept } = fields;
      ledger.hold(sid, { ...seededRecord, ...kept });
      cookie = codec.encode({ sid, ...(flash === undefined ? {} : { flash }) });
      return sid;
    },
    seedCookie(fields) {
      cookie = codec.encode(fields);
    },
    cookie: () => cookie,
    ledger,
    close: () => app.close(),
  };
}

// server/session/plugin.ts: the session runs only where a session is read (pages, /api, /session/*, /pdfs/*); its
// cookie's attributes and caching (item 1), tampering and key rotation (item 3). The cookie carries the id of the
// session's record alone, so its size does not follow the token's and a page view writes no cookie; the record is read
// as each request arrives, an unknown id is no session, and an ended record's cookie, replayed, writes nothing.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { happyUpstream, jwtLikeToken } from "#harness/fake-upstream.ts";
import { type PortalAnswer, PortalClient } from "#harness/portal-client.ts";
import { RedisServer } from "#harness/redis-server.ts";
import { accounts, DEMO_PASSWORD, latestCode, mailboxCode, signIn } from "#harness/sign-in.ts";
import { startSandbox } from "#sandbox/app.ts";
import { PERMISSIONS_TTL_MS } from "#server/account/permissions.ts";
import { sessionDigest } from "#server/account/security-log.ts";
import { deviceCookieName } from "#server/security/device-cookie.ts";
import { sameSiteCookieName } from "#server/session/cookie-mac.ts";
import { type PortalInProcess, type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";
import { portalOnFake, setCookies } from "#tests/support/portal-on-fake.ts";
import { sessionCodec } from "#tests/support/session-codec.ts";
import { recordOf, sidOf } from "#tests/support/session-record.ts";
import { until } from "#tests/support/waiting.ts";
import { errorTexts } from "#web/texts/errors.ts";

const COOKIE = "__Host-portal-session";
const DEVICE_COOKIE = deviceCookieName(true);
const SAME_SITE_COOKIE = sameSiteCookieName(true);
const MINUTE = 60_000;
/**
 * Each cookie's SameSite: the session goes with a link from another site (Lax); the session's same-site cookie, and
 * the device cookie only sign-ins read, go with this site's requests only.
 */
const SAME_SITE: Record<string, "Lax" | "Strict"> = {
  [COOKIE]: "Lax",
  [SAME_SITE_COOKIE]: "Strict",
  [DEVICE_COOKIE]: "Strict",
};

const OLD_KEY = "0".repeat(64);
const NEW_KEY = "1".repeat(64);

/** A cookie's attributes as written, name first: `["__Host-portal-session=…", "Path=/", "HttpOnly", …]`. */
const attributesOf = (setCookie: string) => setCookie.split(";").map((part) => part.trim());

function assertSessionCookie(setCookie: string, where: string) {
  const [pair = "", ...attributes] = attributesOf(setCookie);
  // The session's cookie, or one of those beside it: its same-site cookie (server/session/cookie-mac.ts), the
  // device cookie a passed sign-in leaves (server/security/device-cookie.ts).
  const name = Object.keys(SAME_SITE).find((known) => pair.startsWith(`${known}=`));
  assert.ok(name, `${where}: the cookie is one of ${Object.keys(SAME_SITE).join(", ")}: ${pair.slice(0, 40)}`);
  for (const required of ["Secure", "HttpOnly", `SameSite=${SAME_SITE[name]}`, "Path=/"])
    assert.ok(attributes.includes(required), `${where}: ${required} in ${attributes.join("; ")}`);
  assert.ok(!attributes.some((attribute) => /^domain=/i.test(attribute)), `${where}: no Domain attribute`);
}

describe("session cookie attributes and caching (item 1)", () => {
  let portal: RunningPortal;
  before(async () => {
    portal = await startPortalInProcess({ listen: false });
  });
  after(() => portal.close());

  it("1. cookie: every Set-Cookie of a sign-in and sign-out is __Host- named, Secure, HttpOnly, Path=/ and has no Domain; the session is SameSite=Lax, its same-site cookie and the device cookie SameSite=Strict", async () => {
    const visitor = new PortalClient(portal.app);
    const answers: [string, PortalAnswer][] = [];
    const record = async (what: string, answer: Promise<PortalAnswer>) => answers.push([what, await answer]);
    await record("tax-bridge entry", visitor.get("/tax-bridge/login"));
    await record(
      "login",
      visitor.post("/api/auth/client", { shortname: "ACME", username: "alice", password: DEMO_PASSWORD }),
    );
    await record("generate", visitor.post("/api/web/client/mfa/generate"));
    const code = await latestCode(portal.sandboxUrl, accounts.alice.email);
    await record("validate", visitor.post(`/api/web/client/mfa/validate/${code}`));
    await record("home", visitor.get("/client/submission/report"));
    await record("sign out", visitor.post("/session/logout"));
    const written = answers.flatMap(([what, answer]) => setCookies(answer).map((cookie) => [what, cookie] as const));
    assert.ok(written.length >= 4, `cookies were written at each step: ${written.map(([what]) => what).join(", ")}`);
    for (const [what, cookie] of written) assertSessionCookie(cookie, what);
    const names = new Set(written.map(([, cookie]) => cookie.split("=", 1)[0]));
    for (const name of Object.keys(SAME_SITE)) assert.ok(names.has(name), `${name} was written`);
  });

  it("1. no-store: pages, documents, redirects and API answers that carry session state are never cached", async () => {
    const visitor = await signIn(portal.app, accounts.victor, portal.code);
    const answers = [
      await visitor.get("/client/home"),
      await visitor.get("/client/batch/upload"),
      await visitor.get("/client/no-such-page"),
      await visitor.get("/"),
      await visitor.get("/mfa"),
      await visitor.post("/api/web/client/password/test", { userId: "victor", password: DEMO_PASSWORD }),
      await new PortalClient(portal.app).post("/api/auth/vendor", { username: "vera", password: "wrong" }),
      await visitor.get("/pdfs/BankHolidays.pdf"),
      await visitor.get("/session/idle?return=%2Fclient%2Fhome"),
      await visitor.post("/session/stay", { return: "/client/home" }, { accept: "application/json" }),
      await visitor.post("/session/logout"),
      await visitor.get("/client/home"),
    ];
    for (const answer of answers) {
      assert.match(String(answer.headers["cache-control"]), /no-store/, `${answer.status} ${answer.text.slice(0, 60)}`);
    }
  });

  it("1. behind a TLS-terminating proxy (TRUST_PROXY=true) the proxy's scheme and host count, and the client address is the one the proxy saw, not one the browser forged", async () => {
    const proxied = await startPortalInProcess({
      env: { TRUST_PROXY: "true", PUBLIC_URL: "https://portal.example", RATE_LIMIT_IP_PER_MINUTE: "2" },
      listen: false,
    });
    try {
      // A client of its own each time: a cookie from the sign-in that passes is not sent again.
      const attempt = (forged: string, client: string, password = "a wrong password") =>
        new PortalClient(proxied.app, { remoteAddress: "10.0.0.2" }).post(
          "/api/auth/vendor",
          { username: "vera", password },
          {
            host: "10.0.0.5:3000",
            origin: "https://portal.example",
            "sec-fetch-site": "same-origin",
            "x-forwarded-proto": "https",
            "x-forwarded-host": "portal.example",
            "x-forwarded-for": `${forged}, ${client}`,
          },
        );
      // Failed sign-ins count against the address: a success first, then two failures use up the limit of 2.
      const first = await attempt("198.51.100.1", "203.0.113.7", DEMO_PASSWORD);
      assert.equal(first.status, 200, "the proxy's Origin/Host pair passes the same-origin check");
      assertSessionCookie(setCookies(first)[0] ?? "", "proxied login");
      assert.equal((await attempt("198.51.100.2", "203.0.113.7")).status, 200);
      assert.equal((await attempt("198.51.100.4", "203.0.113.7")).status, 200);
      assert.equal(
        (await attempt("198.51.100.3", "203.0.113.7")).status,
        429,
        "a forged X-Forwarded-For entry does not make a new client",
      );
      assert.equal((await attempt("198.51.100.3", "203.0.113.8")).status, 200, "another real client is not throttled");
    } finally {
      await proxied.close();
    }
    const direct = await startPortalInProcess({ env: { RATE_LIMIT_IP_PER_MINUTE: "1" }, listen: false });
    try {
      const attempt = (forged: string) =>
        new PortalClient(direct.app).post(
          "/api/auth/vendor",
          { username: "vera", password: "wrong" },
          { "x-forwarded-for": forged },
        );
      assert.equal((await attempt("203.0.113.1")).status, 200);
      assert.equal((await attempt("203.0.113.2")).status, 429, "without TRUST_PROXY, X-Forwarded-For is ignored");
    } finally {
      await direct.close();
    }
  });
});

describe("tampering and key rotation (item 3)", () => {
  let portal: RunningPortal;
  let value: string;
  before(async () => {
    portal = await startPortalInProcess({ env: { SESSION_KEY: OLD_KEY }, listen: false });
    const visitor = await signIn(portal.app, accounts.alice, portal.code);
    value = visitor.cookies.get(COOKIE) ?? "";
  });
  after(() => portal.close());

  /** A request of the person's own (`Sec-Fetch-Site: same-origin` unless `headers` say otherwise) with this cookie. */
  const withCookie = (
    app: RunningPortal["app"],
    cookieValue: string,
    url: string,
    method: "GET" | "POST" = "GET",
    headers: Record<string, string> = {},
  ) =>
    new PortalClient(app).request(
      method,
      url,
      method === "POST" ? { userId: "alice", password: DEMO_PASSWORD } : undefined,
      { "sec-fetch-site": "same-origin", ...headers, cookie: `${COOKIE}=${encodeURIComponent(cookieValue)}` },
    );

  it("3. tampering: a flipped byte, a truncated cookie, another key's cookie or garbage is no session, never a 500", async () => {
    assert.equal((await withCookie(portal.app, value, "/client/home")).status, 200, "the untouched cookie works");
    // @fastify/secure-session's value: the ciphertext and its nonce, base64, joined by ";".
    const [cipher = "", iv = ""] = value.split(";");
    const flip = (text: string, at: number) =>
      `${text.slice(0, at)}${text[at] === "A" ? "g" : "A"}${text.slice(at + 1)}`; // a high bit: never padding
    const other = await startPortalInProcess({
      upstreamUrl: portal.sandboxUrl,
      env: { SESSION_KEY: NEW_KEY },
      listen: false,
    });
    const foreign = await signIn(other.app, accounts.alice, portal.code)
      .then((visitor) => visitor.cookies.get(COOKIE) ?? "")
      .finally(() => other.close());
    const tampered: Record<string, string> = {
      "a flipped byte in the ciphertext": `${flip(cipher, 40)};${iv}`,
      "a flipped byte in the IV": `${cipher};${flip(iv, 5)}`,
      "the last byte flipped": `${flip(cipher, cipher.length - 3)};${iv}`,
      "truncated to half": value.slice(0, value.length / 2),
      "the IV cut short": `${cipher};${iv.slice(0, 10)}`,
      "no IV": cipher,
      "another key's cookie": foreign,
      empty: "",
      garbage: "not-a-session-at-all",
      "bad base64": "@@@@;@@@@",
      "JSON instead of a cipher": '{"auth":{"stage":"signed-in"}}',
      huge: "A".repeat(3900),
    };
    for (const [what, cookie] of Object.entries(tampered)) {
      const page = await withCookie(portal.app, cookie, "/client/home");
      assert.equal(page.status, 302, `${what}: no section page`);
      assert.equal(page.headers.location, "/?return=%2Fclient%2Fhome", what);
      const api = await withCookie(portal.app, cookie, "/api/web/client/password/test", "POST");
      assert.equal(api.status, 401, `${what}: the API sees no session`);
      const login = await withCookie(portal.app, cookie, "/");
      assert.equal(login.status, 200, `${what}: the login page opens`);
    }
    const raw = await new PortalClient(portal.app, { islandsHeader: false }).get("/client/home", {
      cookie: `${COOKIE}=%E0%A4%A; x=%`,
    });
    assert.equal(raw.status, 302, "malformed percent-encoding is no session");
  });

  it("3. key rotation: a cookie of the previous key is accepted and re-issued under the new one; a removed key signs out", async () => {
    const rotated = await startPortalInProcess({
      upstreamUrl: portal.sandboxUrl,
      env: { SESSION_KEY: `${NEW_KEY},${OLD_KEY}` },
      listen: false,
    });
    const newOnly = await startPortalInProcess({
      upstreamUrl: portal.sandboxUrl,
      env: { SESSION_KEY: NEW_KEY },
      listen: false,
    });
    try {
      // A ledger the restart keeps (Redis, in production): the record is handed over, so what is tested is the seal.
      const sid = (await sessionCodec(portal.config)).decode(encodeURIComponent(value))?.get("sid") ?? "";
      const record = await recordOf(portal, sid);
      for (const restarted of [rotated, newOnly]) restarted.app.ledger.write(sid, record);
      const health = await withCookie(rotated.app, value, "/healthz");
      assert.equal(health.headers["set-cookie"], undefined, "/healthz never touches the session");
      const link = { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" };
      const followed = await withCookie(rotated.app, value, "/client/home", "GET", link);
      assert.equal(followed.status, 200, "a link from another site opens the page");
      assert.deepEqual(
        followed.cookies.filter((cookie) => cookie.name === COOKIE || cookie.name === SAME_SITE_COOKIE),
        [],
        "and seals the session again under no key",
      );
      const login = await withCookie(rotated.app, value, "/vendor/home");
      const reissued = login.cookies.find((cookie) => cookie.name === COOKIE)?.value;
      assert.ok(reissued, "even an answer that does not change the session re-issues it under the new key");
      assert.equal((await withCookie(rotated.app, value, "/client/home")).status, 200, "the old cookie is accepted");
      assert.equal((await withCookie(newOnly.app, reissued, "/client/home")).status, 200, "re-issued: new key");
      const removed = await withCookie(newOnly.app, value, "/client/home");
      assert.equal(removed.status, 302, "once the old key is removed, its cookies are signed out");
      assert.equal(removed.headers.location, "/?return=%2Fclient%2Fhome");
    } finally {
      await rotated.close();
      await newOnly.close();
    }
  });
});
const METRICS_TOKEN = "m".repeat(32);

describe("where the session runs", () => {
  it("11. no answer for an asset, /healthz, /readyz, /metrics or /favicon.ico carries Set-Cookie or touches the session's record, even when it is due a renewal", async () => {
    let clock = Date.now();
    const fake = await portalOnFake(happyUpstream(), { env: { METRICS_TOKEN }, now: () => clock });
    try {
      const visitor = await signIn(fake.app, accounts.alice, fake.code);
      const sid = await sidOf(fake.portal, visitor);
      const signedInAt = (await recordOf(fake.portal, sid)).seen;
      clock += 5 * 60_000; // the session's "seen" time is now due to be written again
      const asset = readdirSync(new URL("../../../dist/assets/", import.meta.url)).find((name) =>
        name.endsWith(".css"),
      );
      assert.ok(asset, "the build has a stylesheet");
      const quiet = [`/assets/${asset}`, "/healthz", "/readyz", "/metrics", "/favicon.ico"];
      const quietly = new PortalClient(fake.app, { islandsHeader: false });
      for (const url of quiet) {
        const answer = await quietly.get(url, {
          cookie: visitor.cookieHeader,
          authorization: `Bearer ${METRICS_TOKEN}`,
        });
        assert.ok(answer.status < 400, `${url} answers (${answer.status})`);
        assert.deepEqual(setCookies(answer), [], `${url} sends no Set-Cookie`);
      }
      assert.equal((await recordOf(fake.portal, sid)).seen, signedInAt, "the record's seen is as the sign-in left it");
      const page = await visitor.get("/client/home");
      assert.equal(page.status, 200);
      assert.equal(
        (await recordOf(fake.portal, sid)).seen,
        clock,
        "a page does renew it: the answers above were due one",
      );
    } finally {
      await fake.close();
    }
  });
});

describe("the session's cookie carries its record's id alone", () => {
  it("a page view, a request that only reads the session, sets no Set-Cookie at all: a visit, its repeat, a new minute, a gated page fetching its permissions again", async () => {
    let clock = Date.now();
    const fake = await portalOnFake(happyUpstream(), { now: () => clock });
    try {
      const visitor = await signIn(fake.app, accounts.alice, fake.code);
      const sid = await sidOf(fake.portal, visitor);
      const views: [string, string, number][] = [
        ["a visit, its seen due a write", "/client/inbox", 2 * MINUTE],
        ["the same page again", "/client/inbox?tab=2", 0],
        ["a new page in a new minute", "/client/home", MINUTE],
        ["a gated page, its permissions fetched again", "/client/vip/dashboard", PERMISSIONS_TTL_MS],
      ];
      for (const [what, path, later] of views) {
        clock += later;
        const page = await visitor.get(path);
        assert.equal(page.status, 200, what);
        assert.deepEqual(setCookies(page), [], `${what}: no Set-Cookie`);
      }
      const record = await recordOf(fake.portal, sid);
      assert.equal(record.seen, clock, "each view was written to the record instead");
      assert.equal(record.previousPage, "/client/vip/dashboard");
      assert.equal(record.perms?.at, clock);
    } finally {
      await fake.close();
    }
  });

  it("the cookie holds only the id: its sealed value stays under 200 bytes whatever the token's length", async (t) => {
    for (const token of ["short-token", jwtLikeToken(8_000)]) {
      const fake = await portalOnFake(happyUpstream({ token }));
      try {
        const visitor = await signIn(fake.app, accounts.alice, fake.code);
        const sealed = visitor.answers.flatMap((answer) =>
          setCookies(answer)
            .filter((cookie) => cookie.startsWith(`${COOKIE}=`))
            .map((cookie) => (cookie.split(";")[0] ?? "").slice(COOKIE.length + 1)),
        );
        t.diagnostic(`a ${token.length}-character token: cookies of ${sealed.map((v) => v.length).join(", ")} bytes`);
        assert.ok(sealed.length >= 2, "the sign-in and its promotion each wrote the cookie");
        for (const value of sealed) assert.ok(Buffer.byteLength(value) < 200, `${Buffer.byteLength(value)} bytes`);
        const held = (await sessionCodec(fake.portal.config)).decode(sealed.at(-1) ?? "");
        assert.ok(held?.get("sid"), "it names the record");
        assert.equal(held?.get("flash"), undefined);
        const sid = await sidOf(fake.portal, visitor);
        assert.equal((await recordOf(fake.portal, sid)).auth.token, token, "the token is the record's, whole");
        assert.equal((await visitor.get("/client/home")).status, 200, "and the session works");
      } finally {
        await fake.close();
      }
    }
  });

  it("an unknown id, a record the ledger does not hold, is answered as no session, and the cookie is emptied", async () => {
    const fake = await portalOnFake(happyUpstream());
    try {
      const codec = await sessionCodec(fake.portal.config);
      const browser = new PortalClient(fake.app);
      browser.headers = { "sec-fetch-site": "same-origin" }; // the person's own requests
      browser.cookies.set(COOKIE, decodeURIComponent(codec.encode({ sid: randomUUID() })));
      const api = await browser.copy().post("/api/web/client/password/test", { userId: "alice", password: "pw" });
      assert.equal(api.status, 401, "the API sees no session");
      const page = await browser.get("/client/home");
      assert.deepEqual([page.status, page.headers.location], [302, "/?return=%2Fclient%2Fhome"], "no section page");
      const written = page.cookies.find((cookie) => cookie.name === COOKIE);
      assert.ok(written, "the answer writes the cookie again");
      const left = codec.decode(encodeURIComponent(written.value));
      assert.equal(left?.get("sid"), undefined, "emptied: it names no record");
      assert.deepEqual(left?.get("flash"), { ended: "revoked" }, "only the sign-in page's notice");
      const login = await browser.get("/");
      assert.ok(login.text.includes(errorTexts.sessionExpired), "the sign-in page says the session is over");
      assert.deepEqual(fake.upstream.calls, [], "nothing reached the upstream");
    } finally {
      await fake.close();
    }
  });
});

/**
 * One clock per session, on one portal and on two replicas sharing a real redis-server: a session that opens a page
 * every 45 s (so its record's idle clock is written at most once a minute) is still listed after the idle limit has
 * passed many times, and "Sign out of all other devices" from another session ends it; a session's idle end is
 * recorded once, however many copies of its cookie come back, on whichever replica.
 */
function sessionsOn(redis: boolean) {
  let time = Date.now();
  let server: RedisServer | undefined;
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let a: PortalInProcess;
  let b: PortalInProcess;
  before(async () => {
    server = redis ? await RedisServer.start() : undefined;
    sandbox = await startSandbox({ dbPath: ":memory:", portalUrl: "http://127.0.0.1", testPasswordCost: true });
    const env = {
      SESSION_IDLE_MINUTES: "30",
      ...(server ? { REDIS_URL: server.url, REDIS_KEY_PREFIX: `clock-${randomUUID()}:` } : {}),
    };
    const upstreamUrl = sandbox.url;
    a = await startPortalInProcess({ upstreamUrl, env, listen: false, now: () => time });
    b = server ? await startPortalInProcess({ upstreamUrl, env, listen: false, now: () => time }) : a;
  });
  after(async () => {
    await a.close();
    if (b !== a) await b.close();
    await sandbox.close();
    await server?.stop();
  });

  it("stays listed however long it clicks, and Sign out of all other devices ends it", async () => {
    const code = mailboxCode(sandbox.url);
    const clicking = await signIn(b.app, accounts.alice, code);
    const owner = await signIn(a.app, accounts.alice, code);
    const pages = ["/client/home", "/client/inbox"];
    for (let click = 0; click < 43; click++) {
      time += 45_000; // 32 minutes and a quarter in all: past the 30-minute idle limit plus a minute
      assert.equal((await clicking.get(pages[click % 2] ?? "/client/home")).status, 200, `click ${click}`);
      if (click % 20 === 0) assert.equal((await owner.get("/client/home")).status, 200);
    }
    assert.equal((await owner.get("/client/inbox")).status, 200, "the owner acts too");
    const page = "/client/users/change-password";
    await until(
      async () => /name="session" value="[\w-]{22}"/.test((await owner.copy(a.app).get(page)).text),
      2_000,
      "the clicking session listed",
    );
    const ended = await new PortalClient(a.app, { islandsHeader: false }).post(
      "/session/sign-out-others",
      new URLSearchParams({ session: "all", password: DEMO_PASSWORD, return: page }),
      { cookie: owner.cookieHeader },
    );
    assert.equal(ended.headers.location, `${page}?sessions=ended&count=1#sessions`);
    await until(
      async () => (await clicking.copy(b.app).get("/client/home")).status === 302,
      2_000,
      "the clicking session to end",
    );
  });

  it("25 replays of a cookie whose session ended by the idle limit write exactly one 'session-ended.idle' event to the owner's activity, and leave their sign-in rows as they were", async () => {
    const owner = await signIn(a.app, accounts.vera, mailboxCode(sandbox.url));
    const sid = await sidOf(a, owner);
    const { person } = await recordOf(a, sid);
    const activity = async () => {
      const recent = await a.app.account?.activity.recent(person);
      assert.ok(recent, "the portal keeps an activity");
      return recent;
    };
    const isIdleEnd = ({ event, session }: { event: string; session?: string }) =>
      event === "session-ended.idle" && session === sessionDigest(sid);
    /** The rows of the person's activity other than the idle end, and the sign-in periods their failures count in. */
    const signInRows = async () => {
      const { events, failures } = await activity();
      return { events: events.filter((event) => !isIdleEnd(event)), periods: failures.periods };
    };
    const rows = async () => (await a.app.ledger.of(person)).sessions;
    const [before, rowsBefore] = [await signInRows(), await rows()];
    time += 31 * MINUTE;
    // All at once, on either replica: the first to be read past the limit ends the session, the others find it ended.
    const replays = await Promise.all(
      Array.from({ length: 25 }, (_, replay) => owner.copy(replay % 2 === 0 ? a.app : b.app).get("/vendor/home")),
    );
    // B never held the record: when Redis is slow to tell it, it may only ask to try again (never end or guess).
    for (const [replay, answer] of replays.entries())
      if (answer.status !== 503 || !answer.headers["retry-after"])
        assert.equal(answer.headers.location, "/?return=%2Fvendor%2Fhome", `replay ${replay + 1} opens nothing`);
    await until(async () => (await activity()).events.some(isIdleEnd), 2_000, "the idle end in the activity");
    await new Promise((resolve) => setTimeout(resolve, 200)); // time for an event too many
    assert.equal((await activity()).events.filter(isIdleEnd).length, 1, "one idle end, once");
    assert.deepEqual(await signInRows(), before, "the sign-in rows are as they were");
    const rowsAfter = await rows();
    assert.deepEqual(
      rowsAfter.map(([id]) => id),
      rowsBefore.map(([id]) => id),
      "the same sessions, none added or dropped",
    );
    const [, ended] = rowsAfter.find(([id]) => id === sid) ?? [];
    const [, was] = rowsBefore.find(([id]) => id === sid) ?? [];
    assert.equal(ended?.ended?.reason, "idle", "its own row ended, by the idle limit");
    assert.deepEqual(
      { born: ended?.born, seen: ended?.seen, device: ended?.device, address: ended?.address },
      { born: was?.born, seen: was?.seen, device: was?.device, address: was?.address },
      "and says where and when it was signed in, as it did",
    );
  });
}

describe("sessions on one portal, in memory", () => sessionsOn(false));
describe("sessions on two replicas sharing Redis", () => sessionsOn(true));

// server/account/sessions.ts: the person's sessions, as the ledger holds them, at work in one portal (a sign-in is
// listed with its device and address, "last seen" is written at most once a minute, a sign-out ends it, one or all can
// be ended from another device, the bound of 20 ends the oldest; a reset's: tests/server/routes/sandbox.test.ts), and
// across two replicas on one real redis-server (either lists both, and a session ended on one is refused on the other
// within 2 s).
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { type Answer, happyUpstream, sendJson } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { RedisServer } from "#harness/redis-server.ts";
import { accounts, DEMO_PASSWORD, mailboxCode, signIn } from "#harness/sign-in.ts";
import { startSandbox } from "#sandbox/app.ts";
import { personOf } from "#server/account/person.ts";
import { sessionDigest } from "#server/account/security-log.ts";
import { SESSIONS_PER_PERSON } from "#server/account/sessions.ts";
import type { AccountState } from "#server/context.ts";
import { END_SESSIONS_PATH } from "#server/loaders/account-view.ts";
import { type PortalInProcess, type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";
import { portalOnFake } from "#tests/support/portal-on-fake.ts";
import { until } from "#tests/support/waiting.ts";
import { END_OTHERS_HEADER, ENDING_HEADER } from "#web/api/end-others.ts";

const WINDOWS_CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const MAC_FIREFOX = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:121.0) Gecko/20100101 Firefox/121.0";
const alice = personOf({ site: "client", company: "ACME", userName: "alice" });

/**
 * The person's live signed-in sessions in the app's ledger, newest first (what "Where you're signed in" lists, before
 * it leaves out the idle ones); `complete` is false when Redis could not answer.
 */
async function liveSessions(app: FastifyInstance, person: string) {
  const { sessions, complete } = await app.ledger.of(person);
  const live = sessions.filter(([, record]) => !record.ended && record.auth.stage === "signed-in");
  return { sessions: live.map(([id, record]) => ({ id, ...record })), complete };
}

describe("a person's sessions in a portal", () => {
  let portal: RunningPortal;
  let time = Date.now();
  let account: AccountState;
  before(async () => {
    portal = await startPortalInProcess({ listen: false, now: () => time });
    account = portal.app.account as AccountState;
  });
  after(() => portal.close());

  const browser = (userAgent: string) => {
    const client = new PortalClient(portal.app);
    client.headers = { "user-agent": userAgent };
    return client;
  };

  it("lists each signed-in session with its device and address, and drops one signed out", async () => {
    const laptop = await signIn(browser(WINDOWS_CHROME), accounts.alice, portal.code);
    time += 1_000;
    const other = await signIn(browser(MAC_FIREFOX), accounts.alice, portal.code);
    const listed = await liveSessions(portal.app, alice);
    assert.deepEqual(
      listed.sessions.map(({ device, address }) => [device, address]),
      [
        ["Firefox on macOS", "127.0.0.1"],
        ["Chrome on Windows", "127.0.0.1"],
      ],
    );
    assert.equal((await other.post("/session/logout")).status, 303);
    await until(async () => (await liveSessions(portal.app, alice)).sessions.length === 1, 2_000, "the sign-out");
    assert.equal((await liveSessions(portal.app, alice)).sessions[0]?.device, "Chrome on Windows");
    await laptop.post("/session/logout");
  });

  it("writes last seen at most once a minute, on the person's own requests", async () => {
    time = Math.ceil(time / 60_000) * 60_000 + 1_000; // a minute's start: its writes are once a minute of the clock
    const laptop = await signIn(browser(WINDOWS_CHROME), accounts.alice, portal.code);
    await laptop.get("/client/home"); // its first page writes the record (its permissions, its previous page)
    const [entry] = (await liveSessions(portal.app, alice)).sessions;
    assert.ok(entry);
    time += 30_000;
    await laptop.get("/client/home");
    assert.equal((await liveSessions(portal.app, alice)).sessions[0]?.seen, entry.born, "not within the minute");
    time += 65_000;
    await laptop.get("/client/home");
    await until(
      async () => (await liveSessions(portal.app, alice)).sessions[0]?.seen === time,
      2_000,
      "last seen to be written",
    );
    await laptop.post("/session/logout");
  });

  it("takes a session ended by the idle timeout off the list", async () => {
    const laptop = await signIn(browser(WINDOWS_CHROME), accounts.alice, portal.code);
    assert.equal((await liveSessions(portal.app, alice)).sessions.length, 1);
    time += portal.config.session.idleSeconds * 1000 + 1;
    await laptop.get("/client/home");
    await until(async () => (await liveSessions(portal.app, alice)).sessions.length === 0, 2_000, "the idle end");
  });

  it("keeps the browser's time zone when Intl knows it, and nothing else", async () => {
    const tokyo = browser(WINDOWS_CHROME);
    tokyo.headers["x-portal-time-zone"] = "Asia/Tokyo";
    const signedInTokyo = await signIn(tokyo, accounts.alice, portal.code);
    time += 1_000;
    const hostile = browser(MAC_FIREFOX);
    hostile.headers["x-portal-time-zone"] = "<b>Mars/Olympus</b>";
    const signedInHostile = await signIn(hostile, accounts.alice, portal.code);
    const { sessions } = await liveSessions(portal.app, alice);
    assert.deepEqual(
      sessions.map(({ timeZone }) => timeZone),
      [undefined, "Asia/Tokyo"],
    );
    await signedInTokyo.post("/session/logout");
    await signedInHostile.post("/session/logout");
  });
  it("neither lists nor ends a session idle past the limit: its own next request ends it", async () => {
    const stale = await signIn(browser(MAC_FIREFOX), accounts.victor, portal.code);
    time += 32 * 60_000; // past the default 30-minute idle limit and the minute `seen` may lag
    const fresh = await signIn(browser(WINDOWS_CHROME), accounts.victor, portal.code);
    const page = await fresh.get("/client/users/change-password");
    assert.equal(page.status, 200);
    assert.equal(page.text.match(/name="session" value="[\w-]{22}"/g), null, "no other session is listed");
    assert.equal((await stale.get("/client/home")).status, 302, "the idle one has ended");
  });

  /** The change-password page's rows for `client`: the digests it offers to end, and how many rows it shows. */
  const rowsOf = async (client: PortalClient, path = PAGE) => {
    const page = await client.get(path);
    assert.equal(page.status, 200);
    return {
      ids: ids(page.text),
      rows: [...page.text.matchAll(/<li class="session">/g)].length,
      thisDevice: page.text.match(/This device/g)?.length ?? 0,
      trimmed: page.text.includes("Older sessions were signed out"),
    };
  };
  /** The ending form, posted for `client` as the page's own form (no islands' header). */
  const endForm = (client: PortalClient, session: string) =>
    new PortalClient(portal.app, { islandsHeader: false }).post(
      END_SESSIONS_PATH,
      new URLSearchParams({ session, password: DEMO_PASSWORD, return: PAGE }),
      { cookie: client.cookieHeader, "user-agent": WINDOWS_CHROME },
    );
  const endings = async (person: string, event: string) =>
    (await account.activity.recent(person)).events.filter((row) => row.event === event);

  it("lists the person's live signed-in sessions, this one marked: none pending, signed out, idle or another person's", async () => {
    const idle = await signIn(browser(MAC_FIREFOX), accounts.globexAlice, portal.code);
    time += 32 * 60_000; // past the idle limit: hidden from the list, though its record has not ended yet
    const here = await signIn(browser(WINDOWS_CHROME), accounts.globexAlice, portal.code);
    const other = await signIn(browser(MAC_FIREFOX), accounts.globexAlice, portal.code);
    const gone = await signIn(browser(MAC_FIREFOX), accounts.globexAlice, portal.code);
    await gone.post("/session/logout");
    const pending = browser(MAC_FIREFOX);
    const step = await pending.post("/api/auth/client", {
      shortname: "GLOBEX",
      username: "alice",
      password: DEMO_PASSWORD,
    });
    assert.equal(step.status, 200, "a sign-in waiting for its code");
    await signIn(browser(MAC_FIREFOX), accounts.alice, portal.code); // ACME's alice: another person
    const listed = await rowsOf(here);
    assert.equal(listed.rows, 2, "this session and the other live one");
    assert.equal(listed.thisDevice, 1);
    assert.equal(listed.ids.length, 1, "only the other one can be ended from here");
    assert.equal((await rowsOf(other)).ids.length, 1, "and it lists this one");
    assert.equal((await idle.get("/client/home")).status, 302, "the idle one ends at its own next request");
  });

  it("ends one session by its digest, and nothing for a digest not of the person's other sessions", async () => {
    const victor = personOf({ site: "client", company: "ACME", userName: "victor" });
    const kept = await signIn(browser(MAC_FIREFOX), accounts.victor, portal.code);
    time += 1_000;
    const ending = await signIn(browser(MAC_FIREFOX), accounts.victor, portal.code);
    time += 1_000;
    const here = await signIn(browser(WINDOWS_CHROME), accounts.victor, portal.code);
    const [, endingOne] = (await liveSessions(portal.app, victor)).sessions;
    assert.ok(endingOne);
    const listed = (await rowsOf(here)).ids;
    assert.equal(listed[0], sessionDigest(endingOne.id), "the page names each session by its digest, newest first");
    const ended = await endForm(here, sessionDigest(endingOne.id));
    assert.equal(ended.headers.location, `${PAGE}?sessions=ended&count=1#sessions`);
    assert.equal((await ending.get("/client/home")).status, 302, "the session named has ended");
    assert.equal((await kept.get("/client/home")).status, 200, "the other one goes on");
    time += 1_000;
    const stranger = await signIn(browser(MAC_FIREFOX), accounts.globexAlice, portal.code);
    time += 1_000;
    const [theirs] = (await rowsOf(await signIn(browser(MAC_FIREFOX), accounts.globexAlice, portal.code))).ids;
    for (const digest of [theirs ?? "", sessionDigest(endingOne.id), "A".repeat(22)]) {
      const answer = await endForm(here, digest);
      assert.equal(answer.headers.location, `${PAGE}?sessions=unknown#sessions`, digest);
    }
    assert.equal((await stranger.get("/client/home")).status, 200, "another person's session goes on");
    assert.equal((await kept.get("/client/home")).status, 200);
    const rows = await endings(victor, "session-ended.by-person");
    assert.equal(rows.length, 1, "one event for the one ending");
    assert.equal(rows[0]?.device, "Firefox on macOS", "naming where the ended session was signed in");
  });

  it("Sign out of all other devices ends every other session, idle and pending ones too, one event each naming where it was", async () => {
    const gary = personOf({ site: "client", company: "GLOBEX", userName: "gary" });
    const lagging = await signIn(browser(MAC_FIREFOX), accounts.gary, portal.code);
    time += 32 * 60_000; // idle past the limit: not listed, still ended
    const pending = browser(MAC_FIREFOX);
    await pending.post("/api/auth/client", { shortname: "GLOBEX", username: "gary", password: DEMO_PASSWORD });
    const owner = await signIn(browser(WINDOWS_CHROME), accounts.gary, portal.code);
    const before = (await endings(gary, "session-ended.by-person")).length;
    const ended = await endForm(owner, "all");
    assert.equal(ended.headers.location, `${PAGE}?sessions=ended&count=1#sessions`, "the signed-in one counted");
    assert.equal((await lagging.get("/client/home")).status, 302, "the lagging session has ended");
    assert.equal((await pending.post("/api/web/client/mfa/generate")).status, 401, "the pending sign-in too");
    assert.equal((await owner.get("/client/home")).status, 200, "this one goes on");
    const rows = await endings(gary, "session-ended.by-person");
    assert.equal(rows.length - before, 1, "one event per signed-in session ended");
    assert.equal(
      rows[0]?.device,
      "Firefox on macOS",
      "the activity names the session that ended, not the one that acted",
    );
    assert.equal(rows[0]?.address, "127.0.0.1");
    const { sessions } = await liveSessions(portal.app, gary);
    assert.deepEqual(
      sessions.map(({ device }) => device),
      ["Chrome on Windows"],
    );
  });

  it(`keeps at most ${SESSIONS_PER_PERSON} signed-in sessions a person: a sign-in past them ends the oldest, and the page says so`, async () => {
    const vince = personOf({ site: "vendor", userName: "vince" });
    const oldest = await signIn(browser(MAC_FIREFOX), accounts.vince, portal.code);
    const [first] = (await liveSessions(portal.app, vince)).sessions;
    assert.ok(first);
    const later: PortalClient[] = [];
    for (let index = 0; index < SESSIONS_PER_PERSON; index++) {
      time += 1_000;
      later.push(await signIn(browser(WINDOWS_CHROME), accounts.vince, portal.code));
    }
    await until(
      async () => (await liveSessions(portal.app, vince)).sessions.length === SESSIONS_PER_PERSON,
      2_000,
      "the bound",
    );
    const record = await portal.app.ledger.read(first.id);
    assert.equal(typeof record === "object" ? record.ended?.reason : record, "limit", "the oldest ended");
    assert.equal((await oldest.get("/vendor/home")).status, 302);
    const [newest] = later.slice(-1);
    assert.ok(newest);
    const listed = await rowsOf(newest, "/vendor/users/change-password");
    assert.equal(listed.rows, SESSIONS_PER_PERSON);
    assert.ok(listed.trimmed, "Older sessions were signed out");
    const rows = await endings(vince, "session-ended.limit");
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.device, "Firefox on macOS", "naming the session that ended");
  });
});

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
const PAGE = "/client/users/change-password";
const ids = (html: string) => [...html.matchAll(/name="session" value="([\w-]{22})"/g)].map((match) => match[1]);

/** Two replicas of the portal on one sandbox and one real redis-server, started before a describe's tests. */
function twoReplicas() {
  const replicas = {} as { redis: RedisServer; sandbox: Sandbox; a: PortalInProcess; b: PortalInProcess };
  before(async () => {
    replicas.redis = await RedisServer.start();
    replicas.sandbox = await startSandbox({
      dbPath: ":memory:",
      portalUrl: "http://127.0.0.1",
      testPasswordCost: true,
    });
    const env = { REDIS_URL: replicas.redis.url, REDIS_KEY_PREFIX: `test-${randomUUID()}:` };
    replicas.a = await startPortalInProcess({ upstreamUrl: replicas.sandbox.url, env, listen: false });
    replicas.b = await startPortalInProcess({ upstreamUrl: replicas.sandbox.url, env, listen: false });
  });
  after(async () => {
    replicas.redis.thaw(); // a test may leave it frozen
    await replicas.a.close();
    await replicas.b.close();
    await replicas.sandbox.close();
    await replicas.redis.stop();
  });
  return replicas;
}

describe("two replicas sharing the ledger", () => {
  const replicas = twoReplicas();
  const code = () => mailboxCode(replicas.sandbox.url);
  const on = (app: FastifyInstance, client: PortalClient) => client.copy(app);
  const opensHome = async (app: FastifyInstance, client: PortalClient) =>
    (await on(app, client).get("/client/home")).status === 200;
  /** The page's own form: no islands' header. */
  const endForm = (app: FastifyInstance, client: PortalClient, session: string, password: string) =>
    new PortalClient(app, { islandsHeader: false }).post(
      END_SESSIONS_PATH,
      new URLSearchParams({ session, password, return: PAGE }),
      { cookie: client.cookieHeader },
    );

  it("sign in on A and on B: either replica lists both", async () => {
    const onA = await signIn(replicas.a.app, accounts.alice, code());
    const onB = await signIn(replicas.b.app, accounts.alice, code());
    for (const [app, client] of [
      [replicas.a.app, onA],
      [replicas.b.app, onB],
      [replicas.b.app, onA],
    ] as const) {
      const page = await on(app, client).get(PAGE);
      assert.equal(page.status, 200);
      assert.equal(ids(page.text).length, 1, "the other session is listed");
      assert.equal(page.text.match(/This device/g)?.length, 1);
    }
    await onA.post("/session/logout");
    await on(replicas.b.app, onB).post("/session/logout");
  });

  it("end B's session from A: B's cookie is refused on B within 2 s", async () => {
    const onB = await signIn(replicas.b.app, accounts.victor, code());
    const onA = await signIn(replicas.a.app, accounts.victor, code());
    const [bId] = ids((await onA.get(PAGE)).text);
    assert.ok(bId);
    const started = Date.now();
    const ended = await endForm(replicas.a.app, onA, bId, DEMO_PASSWORD);
    assert.equal(ended.headers.location, `${PAGE}?sessions=ended&count=1#sessions`);
    await until(async () => !(await opensHome(replicas.b.app, onB)), 2_000, "B refusing the ended session");
    assert.ok(Date.now() - started < 2_000);
    assert.ok(await opensHome(replicas.b.app, onA), "A's own session goes on, on B too");
  });

  it("Sign out of all other devices with a wrong password ends nothing", async () => {
    const onB = await signIn(replicas.b.app, accounts.gary, code());
    const onA = await signIn(replicas.a.app, accounts.gary, code());
    const answer = await endForm(replicas.a.app, onA, "all", "Not-The-Password-1!");
    assert.equal(answer.headers.location, `${PAGE}?sessions=wrong-password#sessions`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.ok(await opensHome(replicas.b.app, onB), "B's session goes on");
  });

  it("change the password on A with the box checked: B's cookie is dead", async () => {
    const onB = await signIn(replicas.b.app, accounts.alice, code());
    const onA = await signIn(replicas.a.app, accounts.alice, code());
    assert.equal(
      (await onA.post("/api/web/client/password/test", { userId: "alice", password: DEMO_PASSWORD })).status,
      200,
    );
    const changed = await onA.request(
      "POST",
      "/api/web/client/password/change",
      { password: "Replicas-Changed-2026!" },
      { [END_OTHERS_HEADER]: "1" },
    );
    assert.equal(changed.status, 200, changed.text);
    await until(async () => !(await opensHome(replicas.b.app, onB)), 2_000, "B refusing the session the change ended");
    assert.ok(await opensHome(replicas.a.app, onA));
  });
});

describe("two replicas through a Redis outage", () => {
  const replicas = twoReplicas();
  const code = () => mailboxCode(replicas.sandbox.url);
  const opensHome = async (app: FastifyInstance, client: PortalClient) =>
    (await client.copy(app).get("/client/home")).status === 200;
  const redisUp = (portal: PortalInProcess) => async () =>
    ((await portal.app.inject({ url: "/readyz" })).json() as { redis?: string }).redis === "up";
  const bothUp = async () => {
    await until(redisUp(replicas.a), 8_000, "A's redis link");
    await until(redisUp(replicas.b), 8_000, "B's redis link");
  };

  it("ends no live session by the 20-sessions bound applied to a replica's stale copy while Redis is away", async () => {
    const kept = await signIn(replicas.a.app, accounts.alice, code());
    // 19 more sessions begun on A, each served on B too: both replicas hold the person's 20 records.
    const passing: PortalClient[] = [];
    for (let round = 0; round < SESSIONS_PER_PERSON - 1; round++) {
      const client = await signIn(replicas.a.app, accounts.alice, code());
      assert.ok(await opensHome(replicas.b.app, client));
      passing.push(client);
    }
    await replicas.redis.stop();
    // Signed out on B: A's copy never hears of it, and still holds 20 live sessions.
    for (const client of passing) assert.equal((await client.copy(replicas.b.app).post("/session/logout")).status, 303);
    // Signed in on A meanwhile: by A's copy the person is past the bound, by the truth far within it.
    const during: PortalClient[] = [];
    for (let round = 0; round < 3; round++) during.push(await signIn(replicas.a.app, accounts.alice, code()));
    await new Promise((resolve) => setTimeout(resolve, 100)); // the bound is applied after the sign-in's answer
    const { sessions, complete } = await replicas.a.app.ledger.of(alice);
    assert.equal(complete, false, "A answers from its own copy");
    assert.deepEqual(
      sessions.filter(([, record]) => record.ended?.reason === "limit").map(([id]) => id),
      [],
      "no session ended by a bound applied to an incomplete list",
    );
    assert.ok(await opensHome(replicas.a.app, kept), "the live session goes on during the outage");
    for (const client of during) assert.ok(await opensHome(replicas.a.app, client));
    await replicas.redis.restart();
    await bothUp();
    assert.ok(await opensHome(replicas.a.app, kept), "and after it, on A");
    // B never held it: while A gives it back to the Redis that came back empty, B asks to try again, then opens it.
    await until(() => opensHome(replicas.b.app, kept), 8_000, "and on B");
    // B's sign-outs reach A as B shares what the outage kept (after its settling window, however slow the machine).
    await until(
      async () => !(await Promise.all(passing.map((client) => opensHome(replicas.a.app, client)))).some(Boolean),
      8_000,
      "B's sign-outs hold on A",
    );
  });

  it("Sign out of all other devices during an outage reaches the sessions another replica alone knows, once Redis returns, and says it is on its way", async () => {
    const here = await signIn(replicas.a.app, accounts.victor, code());
    await replicas.redis.stop();
    const elsewhere = await signIn(replicas.b.app, accounts.victor, code()); // listed only in B's copy
    // The plain form, posted from this browser: the note is the session's one-time record, carried by its cookie.
    const browser = here.copy(replicas.a.app, { islandsHeader: false });
    const answer = await browser.post(
      END_SESSIONS_PATH,
      new URLSearchParams({ session: "all", password: DEMO_PASSWORD, return: PAGE }),
    );
    const location = String(answer.headers.location);
    assert.match(location, /\?sessions=ending&count=0#sessions$/, "not reported as done");
    assert.match((await browser.get(location)).text, /still on its way/);
    await replicas.redis.restart();
    await bothUp();
    await until(async () => !(await opensHome(replicas.b.app, elsewhere)), 5_000, "B to end the session only it knew");
    assert.ok(await opensHome(replicas.b.app, here), "the session that asked goes on, on B");
    assert.ok(await opensHome(replicas.a.app, here), "and on A");
  });

  it("a password change that signs out the other devices during an outage says the ending is on its way, and it arrives", async () => {
    const here = await signIn(replicas.a.app, accounts.gary, code());
    await replicas.redis.stop();
    const elsewhere = await signIn(replicas.b.app, accounts.gary, code());
    const tested = await here.post("/api/web/client/password/test", { userId: "gary", password: DEMO_PASSWORD });
    assert.equal(tested.status, 200, tested.text);
    const changed = await here.request(
      "POST",
      "/api/web/client/password/change",
      { password: "Outage-Changed-2026!" },
      { [END_OTHERS_HEADER]: "1" },
    );
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.headers[ENDING_HEADER], "1", "the island says it is still on its way");
    await replicas.redis.restart();
    await bothUp();
    await until(async () => !(await opensHome(replicas.b.app, elsewhere)), 5_000, "B to end the session only it knew");
    assert.ok(await opensHome(replicas.a.app, here));
  });
});

describe("two replicas, sessions signed out on the other one while Redis is frozen or full (review of issue 33)", () => {
  const replicas = twoReplicas();
  const gary = personOf({ site: "client", company: "GLOBEX", userName: "gary" });
  const code = () => mailboxCode(replicas.sandbox.url);
  const opensHome = async (app: FastifyInstance, client: PortalClient) =>
    (await client.copy(app).get("/client/home")).status === 200;
  /** How many sessions of the person Redis lists; -1 when the replica answers without Redis. */
  const listedOn = async (portal: PortalInProcess) => {
    const list = await liveSessions(portal.app, gary);
    return list.complete ? list.sessions.length : -1;
  };
  /**
   * The person's first session, then 19 more on A, each served on B too (B holds its record), all signed out on B by
   * `signOut`; answers the first.
   */
  const twentyThenSignOuts = async (signOut: (clients: PortalClient[]) => Promise<void>) => {
    const first = await signIn(replicas.a.app, accounts.gary, code());
    const later: PortalClient[] = [];
    for (let index = 1; index < SESSIONS_PER_PERSON; index++) {
      const client = await signIn(replicas.a.app, accounts.gary, code());
      assert.ok(await opensHome(replicas.b.app, client));
      later.push(client);
    }
    await signOut(later);
    return first;
  };

  it("sign-outs on B while Redis is frozen reach Redis's list when it returns: one more sign-in on A ends no live session", async () => {
    const first = await twentyThenSignOuts(async (later) => {
      replicas.redis.freeze();
      try {
        // Each replica's next read times out and takes its link down: B signs out without Redis.
        for (const portal of [replicas.a, replicas.b])
          await until(async () => (await listedOn(portal)) === -1, 5_000, "Redis away");
        for (const client of later)
          assert.equal((await client.copy(replicas.b.app).post("/session/logout")).status, 303);
      } finally {
        replicas.redis.thaw();
      }
    });
    await until(
      async () => (await listedOn(replicas.a)) === 1,
      10_000,
      "the sign-outs made during the freeze in Redis",
    );
    const last = await signIn(replicas.a.app, accounts.gary, code());
    assert.ok(await opensHome(replicas.a.app, first), "the first session goes on, on A");
    assert.ok(await opensHome(replicas.b.app, first), "and on B");
    for (const client of [first, last]) await client.post("/session/logout");
    await until(async () => (await listedOn(replicas.a)) === 0, 5_000, "no session of the person left");
  });

  it("sign-outs on B while Redis is full reach every replica within moments, and no replica sees an outage", async () => {
    await until(async () => (await listedOn(replicas.a)) === 0, 5_000, "Redis answering, the person without sessions");
    await replicas.redis.config("maxmemory", "1"); // below what it holds: every write that may grow it is refused
    try {
      const first = await twentyThenSignOuts(async (later) => {
        for (const client of later)
          assert.equal((await client.copy(replicas.b.app).post("/session/logout")).status, 303);
      });
      await until(async () => (await listedOn(replicas.a)) === 1, 2_000, "only the first of the 20 still listed on A");
      const last = await signIn(replicas.a.app, accounts.gary, code());
      assert.ok(await opensHome(replicas.a.app, first), "the first session goes on, on A");
      assert.ok(await opensHome(replicas.b.app, first), "and on B");
      const other = await signIn(replicas.b.app, accounts.gary, code());
      // A signs one out, then at once ends all the others from the first: shared with every replica, not on its way.
      assert.equal((await last.post("/session/logout")).status, 303);
      const answer = await new PortalClient(replicas.a.app, { islandsHeader: false }).post(
        END_SESSIONS_PATH,
        new URLSearchParams({ session: "all", password: DEMO_PASSWORD, return: PAGE }),
        { cookie: first.cookieHeader },
      );
      assert.match(String(answer.headers.location), /\?sessions=ended&count=1#sessions$/);
      await until(async () => !(await opensHome(replicas.b.app, other)), 2_000, "the other session to end on B");
      for (const portal of [replicas.a, replicas.b]) {
        const ready = (await portal.app.inject({ url: "/readyz" })).json() as { redis?: string };
        assert.equal(ready.redis, "up");
      }
    } finally {
      await replicas.redis.config("maxmemory", "0");
    }
  });
});

describe("the bound of 20 sessions counts live sessions only", () => {
  for (const backend of ["memory", "redis"] as const) {
    it(`${backend}: a browser's link sign-ins, each replacing the one before, never end the person's session elsewhere`, async () => {
      const redis = backend === "redis" ? await RedisServer.start() : undefined;
      // Each link's answer names ACME's alice, as a real upstream's does.
      const happy = happyUpstream();
      const named = { token: "link-token", message: "Success", username: "alice", shortname: "ACME" };
      const answer: Answer = (call, response) =>
        /client-token/.test(call.path) ? sendJson(response, 200, named) : happy(call, response);
      const fake = await portalOnFake(answer, {
        env: redis ? { REDIS_URL: redis.url, REDIS_KEY_PREFIX: `bound-${randomUUID()}:` } : {},
      });
      try {
        const elsewhere = await signIn(fake.app, accounts.alice, fake.code);
        const browser = new PortalClient(fake.app);
        for (let index = 0; index <= SESSIONS_PER_PERSON; index++) {
          const link = await browser.post(`/api/auth/client-token?uuid=link-${index}`, undefined, {
            "x-portal-replace-session": "1",
          });
          assert.equal(link.json().tokenHeld, true, `link sign-in ${index + 1}`);
        }
        const account = await elsewhere.get("/client/users/change-password");
        assert.equal(account.status, 200, "the session elsewhere is still signed in");
        assert.doesNotMatch(account.text, /Older sessions were signed out/);
        // The last link's listing is written after its answer: it is listed within moments.
        const listed = async () =>
          [...(await elsewhere.get("/client/users/change-password")).text.matchAll(/<li class="session">/g)].length;
        await until(async () => (await listed()) === 2, 3_000, "two live sessions, listed");
      } finally {
        await fake.close();
        await redis?.stop();
      }
    });
  }
});

// server/stores/create-stores.ts: the stores are the backend asked for: in memory without REDIS_URL, and with it
// shared through Redis, so that portal replicas with the same keys and one real redis-server share their security state.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyInstance } from "fastify";
import { PortalClient } from "#harness/portal-client.ts";
import { RedisServer } from "#harness/redis-server.ts";
import { accounts, DEMO_PASSWORD, mailboxCode, signIn } from "#harness/sign-in.ts";
import { startSandbox } from "#sandbox/app.ts";
import type { Stores } from "#server/stores/create-stores.ts";
import { type PortalInProcess, startPortalInProcess } from "#tests/support/portal.ts";
import { slowLink } from "#tests/support/slow-link.ts";
import { testStores } from "#tests/support/stores.ts";

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

/** Polls until `check` holds: pub/sub carries a session's ending to the other replica within milliseconds, not at once. */
async function eventually(what: string, check: () => Promise<boolean>, withinMs = 5_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`${what}: not within ${withinMs} ms`);
    await delay(25);
  }
}

/** The same session cookie, presented to another replica. */
function copyOnto(app: FastifyInstance, visitor: PortalClient): PortalClient {
  const copy = new PortalClient(app);
  copy.cookies = new Map(visitor.cookies);
  return copy;
}

const opensHome = async (visitor: PortalClient) => (await visitor.get("/client/home")).status === 200;

for (const backend of ["memory", "redis"] as const) {
  describe(`${backend} stores`, () => {
    let server: RedisServer | undefined;
    let stores: Stores;
    before(async () => {
      server = backend === "redis" ? await RedisServer.start() : undefined;
      stores = testStores(server?.url, { keyPrefix: `create-stores-${randomUUID()}:` });
      await stores.ready();
    });
    after(async () => {
      await stores.close();
      await server?.stop();
    });

    it("is the backend asked for, and healthy", async () => {
      assert.equal(stores.backend, backend);
      const health = await stores.health();
      assert.deepEqual(health, backend === "memory" ? { backend } : { backend, up: true, pendingSessionWrites: 0 });
    });
  });
}

describe("replicas sharing one Redis", () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  const started: PortalInProcess[] = [];

  /** One replica: the shared upstream, the shared Redis under this test's own prefix, the same session keys. */
  const replica = async (prefix: string, env: NodeJS.ProcessEnv = {}) => {
    const portal = await startPortalInProcess({
      upstreamUrl: sandbox.url,
      env: { REDIS_URL: redis.url, REDIS_KEY_PREFIX: prefix, ...env },
      listen: false,
    });
    started.push(portal);
    return { app: portal.app, sandboxUrl: sandbox.url, code: mailboxCode(sandbox.url), close: () => portal.close() };
  };
  const pair = async (env?: NodeJS.ProcessEnv) => {
    const prefix = `test-${randomUUID()}:`;
    return [await replica(prefix, env), await replica(prefix, env), prefix] as const;
  };

  before(async () => {
    redis = await RedisServer.start();
    sandbox = await startSandbox({ dbPath: ":memory:", portalUrl: "http://127.0.0.1", testPasswordCost: true });
  });
  after(async () => {
    for (const portal of started) await portal.close().catch(() => {});
    await sandbox.close();
    await redis.stop();
  });

  it("sign-out on replica A makes the cookie dead on replica B", async () => {
    const [a, b] = await pair();
    const onA = await signIn(a.app, accounts.alice, a.code);
    const onB = copyOnto(b.app, onA);
    assert.ok(await opensHome(onB), "B opens the section with A's cookie while it is signed in");
    assert.equal((await onA.post("/session/logout")).status, 303, "signed out on A");
    await eventually("B refuses the signed-out cookie", async () => !(await opensHome(copyOnto(b.app, onB))));
    const answer = await copyOnto(b.app, onB).get("/client/home");
    assert.equal(answer.status, 302, "B sends it to sign in");
    assert.equal(answer.headers.location, "/?return=%2Fclient%2Fhome");
  });

  it("a replica started after the sign-out still refuses the signed-out cookie", async () => {
    const [a, , prefix] = await pair();
    const onA = await signIn(a.app, accounts.victor, a.code);
    const kept = copyOnto(a.app, onA);
    await onA.post("/session/logout");
    const restarted = await replica(prefix);
    assert.equal(await opensHome(copyOnto(restarted.app, kept)), false, "a new replica reads the ended record");
  });

  it("failed sign-ins add up across replicas A and B", async () => {
    const [a, b] = await pair({ RATE_LIMIT_USER_PER_MINUTE: "3", RATE_LIMIT_IP_PER_MINUTE: "100" });
    const wrong = { shortname: "ACME", username: "paula", password: "not-her-password" };
    const statuses: number[] = [];
    for (const app of [a.app, b.app, a.app, b.app]) {
      statuses.push((await new PortalClient(app).post("/api/auth/client", wrong)).status);
    }
    assert.deepEqual(
      statuses,
      [200, 200, 200, 429],
      "the fourth failure, on B, meets the limit of three set by A and B",
    );
    const right = await new PortalClient(a.app).post("/api/auth/client", { ...wrong, password: DEMO_PASSWORD });
    assert.equal(right.status, 429, "A throttles the person too");
  });

  it("wrong MFA codes add up across replicas A and B, and the limit ends the sign-in on both", async () => {
    const [a, b] = await pair({ MFA_MAX_WRONG_CODES: "4" });
    const onA = new PortalClient(a.app);
    const login = { shortname: "GLOBEX", username: "gary", password: DEMO_PASSWORD };
    assert.equal((await onA.post("/api/auth/client", login)).status, 200);
    assert.equal((await onA.post("/api/web/client/mfa/generate")).status, 200);
    const onB = copyOnto(b.app, onA);
    const left: string[] = [];
    for (const visitor of [onA, onB, onA]) {
      const answer = await visitor.post("/api/web/client/mfa/validate/000000");
      assert.equal(answer.status, 200);
      left.push(String(answer.json()[0].attemptsLeft));
    }
    assert.deepEqual(left, ["3", "2", "1"], "each replica sees the other's strikes");
    const last = await onB.post("/api/web/client/mfa/validate/000000");
    assert.equal(last.json()[0].attemptsLeft, 0, "the fourth wrong code, on B, is the last");
    await eventually("A's copy of the pending sign-in is dead", async () => {
      const answer = await copyOnto(a.app, onA).post("/api/web/client/mfa/validate/000000");
      return answer.status === 401;
    });
  });

  it("a code sent on A as soon as B answered a wrong one is checked, never refused as one already in flight", async () => {
    const prefix = `test-${randomUUID()}:`;
    const a = await replica(prefix, { MFA_MAX_WRONG_CODES: "10" });
    // B reaches Redis over a slow link: whatever B leaves to Redis after its answer lands well after A's next call.
    const link = await slowLink({ host: "127.0.0.1", port: redis.port }, 150);
    try {
      const b = await replica(prefix, { MFA_MAX_WRONG_CODES: "10", REDIS_URL: link.url });
      const onA = new PortalClient(a.app);
      const login = { shortname: "GLOBEX", username: "gary", password: DEMO_PASSWORD };
      assert.equal((await onA.post("/api/auth/client", login)).status, 200);
      assert.equal((await onA.post("/api/web/client/mfa/generate")).status, 200);
      const onB = copyOnto(b.app, onA);
      const answers = [];
      for (let round = 0; round < 3; round += 1) {
        for (const visitor of [onB, onA]) {
          const answer = await visitor.post("/api/web/client/mfa/validate/000000");
          answers.push({ status: answer.status, text: answer.status === 200 ? answer.json()[0].text : undefined });
        }
      }
      assert.deepEqual(
        answers,
        answers.map(() => ({ status: 200, text: "Failed" })),
        "each wrong code gets its own Failed answer, none a 409",
      );
    } finally {
      await link.close();
    }
  });

  it("Redis stopped mid-run: pages keep serving, sign-out still ends the session, /readyz says Redis is down, and endings made meanwhile reach the other replica when Redis returns", async () => {
    const [a, b] = await pair();
    const onA = await signIn(a.app, accounts.alice, a.code);
    const kept = copyOnto(a.app, onA);
    const other = await signIn(a.app, accounts.victor, a.code);
    assert.ok(await opensHome(copyOnto(b.app, onA)), "B serves the session: it holds its record from now on");
    await redis.stop();
    try {
      const started = performance.now();
      assert.ok(await opensHome(copyOnto(b.app, onA)), "B still serves a signed-in page");
      assert.ok(performance.now() - started < 2_000, "without waiting on the dead Redis");
      const unknown = await copyOnto(b.app, other).get("/client/home");
      assert.equal(unknown.status, 503, "a session B never held is neither served nor ended: try again");
      assert.equal(unknown.headers["retry-after"], "5");
      // As a browser asks for it (its own navigation, compressed): the page in the portal's words, never a 500.
      const browsing = { "sec-fetch-site": "same-origin", "sec-fetch-mode": "navigate", "accept-encoding": "gzip" };
      const page = await copyOnto(b.app, other).get("/client/home", browsing);
      assert.equal(page.status, 503);
      assert.equal(page.headers["retry-after"], "5");
      assert.match(page.text, /Please try again in a moment/);
      const ready = await new PortalClient(a.app).get("/readyz");
      assert.equal(ready.status, 200, "the replica stays ready: it can serve alone");
      assert.equal(ready.json().redis, "down", "and reports Redis down");
      assert.equal((await onA.post("/session/logout")).status, 303, "sign-out never fails for the user");
      assert.equal(onA.cookies.has("__Host-portal-session"), false, "the browser's session cookie is cleared");
      assert.equal(await opensHome(copyOnto(a.app, kept)), false, "a kept copy of the cookie is dead on A at once");
      const wrong = await new PortalClient(b.app).post("/api/auth/client", {
        shortname: "ACME",
        username: "paula",
        password: "wrong",
      });
      assert.equal(wrong.status, 200, "sign-in keeps working, counted in the replica's memory");
    } finally {
      await redis.restart();
    }
    await eventually(
      "B refuses the cookie signed out during the outage",
      async () => !(await opensHome(copyOnto(b.app, kept))),
      10_000,
    );
    assert.ok(await opensHome(copyOnto(b.app, other)), "other sessions are untouched");
    await eventually(
      "/readyz says Redis is up again",
      async () => (await new PortalClient(a.app).get("/readyz")).json().redis === "up",
      10_000,
    );
  });
});

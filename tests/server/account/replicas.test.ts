// Two portal replicas on one real redis-server share each person's sessions: either lists both, and a session ended
// on one (by Sign out, or by a password change) is refused on the other within 2 s.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import type { PortalClient } from "#harness/portal-client.ts";
import { RedisServer } from "#harness/redis-server.ts";
import { accounts, DEMO_PASSWORD, mailboxCode, signIn } from "#harness/sign-in.ts";
import { END_SESSIONS_PATH } from "#server/account/view.ts";
import { startSandbox } from "#server/sandbox/app.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";
import { until } from "#tests/support/stores.ts";
import { END_OTHERS_HEADER } from "#web/api/end-others.ts";

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
const PAGE = "/client/users/change-password";
const ids = (html: string) => [...html.matchAll(/name="session" value="([\w-]{22})"/g)].map((match) => match[1]);

describe("two replicas sharing the session registry", () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  let a: RunningPortal;
  let b: RunningPortal;

  before(async () => {
    redis = await RedisServer.start();
    sandbox = await startSandbox({ dbPath: ":memory:", portalUrl: "http://127.0.0.1" });
    const prefix = `test-${randomUUID()}:`;
    const env = { UPSTREAM_URL: sandbox.url, REDIS_URL: redis.url, REDIS_KEY_PREFIX: prefix };
    a = await startPortalInProcess({ env, listen: false });
    b = await startPortalInProcess({ env, listen: false });
  });
  after(async () => {
    await a.close();
    await b.close();
    await sandbox.close();
    await redis.stop();
  });

  const code = () => mailboxCode(sandbox.url);
  const on = (app: FastifyInstance, client: PortalClient) => client.copy(app);
  const opensHome = async (app: FastifyInstance, client: PortalClient) =>
    (await on(app, client).get("/client/home")).status === 200;
  const endForm = (app: FastifyInstance, client: PortalClient, session: string, password: string) =>
    app.inject({
      method: "POST",
      url: END_SESSIONS_PATH,
      headers: { cookie: client.cookieHeader, "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ session, password, return: PAGE }).toString(),
    });

  it("sign in on A and on B: either replica lists both", async () => {
    const onA = await signIn(a.app, accounts.alice, code());
    const onB = await signIn(b.app, accounts.alice, code());
    for (const [app, client] of [
      [a.app, onA],
      [b.app, onB],
      [b.app, onA],
    ] as const) {
      const page = await on(app, client).get(PAGE);
      assert.equal(page.status, 200);
      assert.equal(ids(page.text).length, 1, "the other session is listed");
      assert.equal(page.text.match(/This device/g)?.length, 1);
    }
    await onA.post("/session/logout");
    await on(b.app, onB).post("/session/logout");
  });

  it("end B's session from A: B's cookie is refused on B within 2 s", async () => {
    const onB = await signIn(b.app, accounts.victor, code());
    const onA = await signIn(a.app, accounts.victor, code());
    const [bId] = ids((await onA.get(PAGE)).text);
    assert.ok(bId);
    const started = Date.now();
    const ended = await endForm(a.app, onA, bId, DEMO_PASSWORD);
    assert.equal(ended.headers.location, `${PAGE}?sessions=ended&count=1`);
    await until(async () => !(await opensHome(b.app, onB)), 2_000, "B refusing the ended session");
    assert.ok(Date.now() - started < 2_000);
    assert.ok(await opensHome(b.app, onA), "A's own session goes on, on B too");
  });

  it("Sign out of all other devices with a wrong password ends nothing", async () => {
    const onB = await signIn(b.app, accounts.gary, code());
    const onA = await signIn(a.app, accounts.gary, code());
    const answer = await endForm(a.app, onA, "all", "Not-The-Password-1!");
    assert.equal(answer.headers.location, `${PAGE}?sessions=wrong-password`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.ok(await opensHome(b.app, onB), "B's session goes on");
  });

  it("change the password on A with the box checked: B's cookie is dead", async () => {
    const onB = await signIn(b.app, accounts.alice, code());
    const onA = await signIn(a.app, accounts.alice, code());
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
    await until(async () => !(await opensHome(b.app, onB)), 2_000, "B refusing the session the change ended");
    assert.ok(await opensHome(a.app, onA));
  });
});

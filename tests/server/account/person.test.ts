// server/account/person.ts: a person is who the upstream says signed in (the fold of the key itself:
// tests/web/protocol/person-key.test.ts); two companies' users of one user ID, signed in by password and by link, on
// one portal and on two replicas sharing a real redis-server, neither see nor end each other's sessions, and each ends
// all of her own.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { happyUpstream } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { RedisServer } from "#harness/redis-server.ts";
import { type Account, accounts, DEMO_PASSWORD, mailboxCode, signIn } from "#harness/sign-in.ts";
import { startSandbox } from "#sandbox/app.ts";
import { personOf } from "#server/account/person.ts";
import { linkOwner } from "#server/actions/effects.ts";
import { END_SESSIONS_PATH } from "#server/loaders/account-view.ts";
import { type PortalInProcess, sandboxPost, startPortalInProcess } from "#tests/support/portal.ts";
import { portalOnFake } from "#tests/support/portal-on-fake.ts";
import { until } from "#tests/support/waiting.ts";
import { personKey } from "#web/protocol/person-key.ts";
import { accountTexts } from "#web/texts/account.ts";

describe("the person key", () => {
  it("keeps apart two companies' users of one user ID", () => {
    const acme = personOf({ site: "client", company: "ACME", userName: "alice" });
    assert.notEqual(acme, personOf({ site: "client", company: "GLOBEX", userName: "alice" }));
    assert.notEqual(acme, personOf({ site: "client", userName: "alice" }));
  });

  it("files a link whose answer names no company on its own, never under the user ID alone", () => {
    const first = linkOwner("client", "alice", undefined);
    const second = linkOwner("client", "alice", undefined);
    assert.ok(first.alone && second.alone);
    assert.notEqual(personOf({ site: "client", ...first }), personOf({ site: "client", ...second }));
    assert.notEqual(personOf({ site: "client", ...first }), personKey("client", "", "alice"));
    assert.deepEqual(linkOwner("client", "alice", "GLOBEX"), { userName: "alice", company: "GLOBEX" });
    assert.deepEqual(linkOwner("vendor", "vera", undefined), { userName: "vera" });
  });
});

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
const PAGE = "/client/users/change-password";
const ids = (html: string) => [...html.matchAll(/name="session" value="([\w-]{22})"/g)].map((match) => match[1]);

/** Two portals on one store (two replicas on one redis-server), or the same in-memory portal twice. */
function sameIdInTwoCompanies(redis: boolean) {
  let server: RedisServer | undefined;
  let sandbox: Sandbox;
  let a: PortalInProcess;
  let b: typeof a;
  before(async () => {
    server = redis ? await RedisServer.start() : undefined;
    sandbox = await startSandbox({ dbPath: ":memory:", portalUrl: "http://127.0.0.1", testPasswordCost: true });
    const env = server ? { REDIS_URL: server.url, REDIS_KEY_PREFIX: `person-${randomUUID()}:` } : {};
    a = await startPortalInProcess({ upstreamUrl: sandbox.url, env, listen: false });
    b = server ? await startPortalInProcess({ upstreamUrl: sandbox.url, env, listen: false }) : a;
  });
  after(async () => {
    await a.close();
    if (b !== a) await b.close();
    await sandbox.close();
    await server?.stop();
  });

  const byLink = async (app: FastifyInstance, account: Account & { shortname: string }) => {
    const minted = await sandboxPost(sandbox.url, "/sandbox/link-login", {
      site: "client",
      shortname: account.shortname,
      username: account.username,
    });
    const client = new PortalClient(app);
    const link = await client.post(`/api/auth/client-token?uuid=${(minted as { uuid: string }).uuid}`);
    assert.equal(link.json().tokenHeld, true, link.text);
    return client;
  };
  const opens = async (app: FastifyInstance, client: PortalClient) =>
    (await client.copy(app).get("/client/home")).status === 200;
  const others = async (app: FastifyInstance, client: PortalClient) => ids((await client.copy(app).get(PAGE)).text);

  it("neither sees nor ends the other's sessions, by password and by link, and each ends all of her own", async () => {
    const code = mailboxCode(sandbox.url);
    const acmePassword = await signIn(a.app, accounts.alice, code);
    const acmeLink = await byLink(b.app, accounts.alice);
    const globexPassword = await signIn(b.app, accounts.globexAlice, code);
    const globexLink = await byLink(a.app, accounts.globexAlice);

    for (const [app, client, name] of [
      [a.app, acmePassword, "ACME's alice by password"],
      [b.app, acmeLink, "ACME's alice by link"],
      [b.app, globexPassword, "GLOBEX's alice by password"],
      [a.app, globexLink, "GLOBEX's alice by link"],
    ] as const)
      await until(async () => (await others(app, client)).length === 1, 2_000, `${name} listing her one other session`);

    const ended = await new PortalClient(a.app, { islandsHeader: false }).post(
      END_SESSIONS_PATH,
      new URLSearchParams({ session: "all", password: DEMO_PASSWORD, return: PAGE }),
      { cookie: acmePassword.cookieHeader },
    );
    assert.equal(
      ended.headers.location,
      `${PAGE}?sessions=ended&count=1#sessions`,
      "one other session of ACME's alice",
    );
    await until(async () => !(await opens(b.app, acmeLink)), 2_000, "ACME's alice's link session to end");
    assert.ok(await opens(a.app, acmePassword), "her own session goes on");
    assert.ok(await opens(b.app, globexPassword), "GLOBEX's alice's password session goes on");
    assert.ok(await opens(a.app, globexLink), "and her link session too");
  });
}

describe("two companies' users of one user ID, in memory", () => sameIdInTwoCompanies(false));
describe("two companies' users of one user ID, on two replicas sharing Redis", () => sameIdInTwoCompanies(true));

describe("a link sign-in whose answer does not say whose account it opened", () => {
  it("is listed on its own, and its owner is told so plainly", async () => {
    const fake = await portalOnFake(happyUpstream());
    try {
      const visitor = new PortalClient(fake.app);
      assert.equal((await visitor.post("/api/auth/client-token?uuid=a-link")).json().tokenHeld, true);
      const page = await visitor.get(PAGE);
      assert.equal(page.status, 200);
      assert.ok(page.text.includes(accountTexts.alone), "the note says the session is listed on its own");
      const owned = await signIn(fake.app, accounts.alice, fake.code);
      assert.ok(!(await owned.get(PAGE)).text.includes(accountTexts.alone), "a password sign-in is not");
    } finally {
      await fake.close();
    }
  });
});

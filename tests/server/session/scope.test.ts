// Issue 11: the session runs only where a session is read (pages, /api, /session/*, /pdfs/*), and every way a
// session ends revokes its id, so a kept copy of the cookie opens nothing afterwards.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { happyUpstream } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { portalOnFake, setCookies } from "#tests/support/portal-on-fake.ts";

const METRICS_TOKEN = "m".repeat(32);

/** The same cookie, kept aside: what an attacker who copied it would replay. */
function keptCopy(app: FastifyInstance, visitor: PortalClient): PortalClient {
  const copy = new PortalClient(app);
  copy.cookies = new Map(visitor.cookies);
  return copy;
}

const opensHome = async (visitor: PortalClient) => (await visitor.get("/client/home")).status === 200;

describe("where the session runs (issue 11)", () => {
  it("11. no answer for an asset, /healthz, /readyz, /metrics or /favicon.ico carries Set-Cookie, even when the session is due a renewal", async () => {
    let clock = Date.now();
    const fake = await portalOnFake(happyUpstream(), { env: { METRICS_TOKEN }, now: () => clock });
    try {
      const visitor = await signIn(fake.app, accounts.alice, fake.code);
      clock += 5 * 60_000; // the session's "seen" time is now due to be written again
      const asset = readdirSync(new URL("../../../dist/assets/", import.meta.url)).find((name) =>
        name.endsWith(".css"),
      );
      assert.ok(asset, "the build has a stylesheet");
      const quiet = [`/assets/${asset}`, "/healthz", "/readyz", "/metrics", "/favicon.ico"];
      for (const url of quiet) {
        const answer = await fake.app.inject({
          url,
          headers: { cookie: visitor.cookieHeader, authorization: `Bearer ${METRICS_TOKEN}` },
        });
        assert.ok(answer.statusCode < 400, `${url} answers (${answer.statusCode})`);
        assert.deepEqual(setCookies(answer), [], `${url} sends no Set-Cookie`);
      }
      const page = await visitor.get("/client/home");
      assert.equal(page.status, 200);
      assert.equal(setCookies(page).length, 1, "a page does renew the session: the quiet answers above were due one");
    } finally {
      await fake.close();
    }
  });
});

describe("every end of a session revokes it (issue 11)", () => {
  /** Each way a signed-in session can end, and what ends it. */
  const ends: [string, (visitor: PortalClient, app: FastifyInstance) => Promise<unknown>][] = [
    ["sign-out", (visitor) => visitor.post("/session/logout")],
    [
      "a new password sign-in",
      (visitor) => visitor.post("/api/auth/client", { shortname: "ACME", username: "bob", password: "pw" }),
    ],
    [
      "a link sign-in, once confirmed",
      (visitor, app) =>
        app.inject({
          method: "POST",
          url: "/api/auth/client-token?uuid=11111111-1111-4111-8111-111111111111",
          headers: { cookie: visitor.cookieHeader, "x-portal-request": "1", "x-portal-replace-session": "1" },
        }),
    ],
  ];
  for (const [what, end] of ends) {
    it(`11. ${what} revokes the session it ends: a kept copy of its cookie opens nothing`, async () => {
      const fake = await portalOnFake(happyUpstream());
      try {
        const visitor = await signIn(fake.app, accounts.alice, fake.code);
        const kept = keptCopy(fake.app, visitor);
        assert.ok(await opensHome(kept), "the copy works while the session lives");
        await end(visitor, fake.app);
        assert.equal(await opensHome(kept), false, `after ${what}, the kept copy is refused`);
      } finally {
        await fake.close();
      }
    });
  }

  it("11. an upstream 401 on an /api call revokes the session: a kept copy of its cookie opens nothing", async () => {
    let refuse = false;
    const happy = happyUpstream();
    const fake = await portalOnFake((call, response) => {
      if (refuse && call.path.includes("/password/test")) {
        response.writeHead(401, { "content-type": "application/json" }).end("{}");
        return;
      }
      return happy(call, response);
    });
    try {
      const visitor = await signIn(fake.app, accounts.alice, fake.code);
      const kept = keptCopy(fake.app, visitor);
      refuse = true;
      const answer = await visitor.post("/api/web/client/password/test", { userId: "alice", password: "pw" });
      assert.equal(answer.status, 401);
      assert.equal(await opensHome(kept), false, "the kept copy is refused");
    } finally {
      await fake.close();
    }
  });
});

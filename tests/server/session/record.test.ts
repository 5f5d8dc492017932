// server/session/record.ts: a session is one record in the ledger, and its cookie carries only the record's id, so an
// upstream token of any size the portal accepts signs in, and a signed-in browser's cookies stay small.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { happyUpstream, jwtLikeToken } from "#harness/fake-upstream.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { portalOnFake, setCookies } from "#tests/support/portal-on-fake.ts";

/** What the portal's cookies come to in the Cookie header a signed-in browser sends. */
const MAX_COOKIE_BYTES = 1024;

describe("a session is one record, its cookie the record's id", () => {
  it("an upstream token of 8,000 characters signs in and opens the section, every call carrying it whole", async () => {
    const token = jwtLikeToken(8000);
    const fake = await portalOnFake(happyUpstream({ token }));
    try {
      const visitor = await signIn(fake.app, accounts.alice, fake.code);
      const home = await visitor.get("/client/vip/dashboard");
      assert.equal(home.status, 200, "signed in, with its permissions: a gated page opens");
      const bearers = fake.upstream.calls.map((call) => call.headers.authorization).filter(Boolean);
      assert.ok(bearers.length >= 3, "generate, validate and user-info carry the token");
      for (const bearer of bearers) assert.equal(bearer, `Bearer ${token}`, "the token comes back whole");
    } finally {
      await fake.close();
    }
  });

  it("with that token, the portal's cookies in a signed-in browser come to at most 1 KB, and a page view sets none", async () => {
    const fake = await portalOnFake(happyUpstream({ token: jwtLikeToken(8000) }));
    try {
      const visitor = await signIn(fake.app, accounts.alice, fake.code);
      const bytes = Buffer.byteLength(visitor.cookieHeader);
      assert.ok(bytes <= MAX_COOKIE_BYTES, `the Cookie header is ${bytes} bytes`);
      for (const path of ["/client/home", "/client/vip/dashboard", "/client/home"]) {
        const page = await visitor.get(path);
        assert.equal(page.status, 200);
        assert.deepEqual(setCookies(page), [], `${path} sets no cookie`);
      }
    } finally {
      await fake.close();
    }
  });
});

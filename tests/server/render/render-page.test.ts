// server/render/render-page.ts: what a page shows is written into the kept HTML as typed, never mistaken for one of
// its slots.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { portalsOnFakeForFile } from "#tests/support/portal-on-fake.ts";

/** A portal on a fake upstream, closed after the file's tests. */
const onFake = portalsOnFakeForFile();

describe("a rendered page", () => {
  it("a path that spells a slot of the kept HTML shows as typed, never as the answer's nonce", async () => {
    const { app, code } = await onFake();
    const client = await signIn(app, accounts.alice, code);
    for (const slot of ["nonce-slot-4c1e9b7d", "idle-slot-4c1e9b7d"]) {
      const answer = await client.get(`/client/${slot}`);
      const nonce = /'nonce-([^']+)'/.exec(String(answer.headers["content-security-policy"]))?.[1];
      assert.ok(nonce);
      assert.ok(!answer.text.includes(`/client/${nonce}`), "the nonce is not written into the address");
    }
    const signedOut = new PortalClient(app);
    const login = await signedOut.get("/?return=/client/nonce-slot-4c1e9b7d");
    const nonce = /'nonce-([^']+)'/.exec(String(login.headers["content-security-policy"]))?.[1];
    assert.ok(nonce && !login.text.includes(`/client/${nonce}`));
  });
});

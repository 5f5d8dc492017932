// SECURITY.md item 6: every state-changing call needs the islands' header and this origin; nothing else reaches upstream.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { sessionsOnFake } from "#tests/support/portal-on-fake.ts";

const on = sessionsOnFake();

const json = (body: unknown) => JSON.stringify(body);
/** The same scheme and host, one port further. */
const otherPort = (url: string) => {
  const other = new URL(url);
  other.port = String(Number(other.port) + 1);
  return other.origin;
};

describe("CSRF (item 6)", () => {
  const calls: [string, string | undefined, "anyone" | "pending" | "signed-in"][] = [
    ["/api/auth/client", json({ shortname: "ACME", username: "alice", password: "pw" }), "anyone"],
    ["/api/auth/vendor", json({ username: "vera", password: "pw" }), "anyone"],
    ["/api/auth/client-token?uuid=abc", undefined, "anyone"],
    ["/api/auth/vendor-token?uuid=abc", undefined, "anyone"],
    ["/api/web/reset-pwd", json({ clientShortName: "", emailAddress: "vera@vendor.example" }), "anyone"],
    ["/api/web/client/mfa/generate", undefined, "pending"],
    ["/api/web/client/mfa/validate/123456", undefined, "pending"],
    ["/api/web/client/password/test", json({ userId: "alice", password: "pw" }), "signed-in"],
    ["/api/web/client/password/change", json({ password: "Strong-Password-2026!" }), "signed-in"],
  ];
  const cookieFor = (needs: string) => (needs === "pending" ? on.pendingCookie : on.signedInCookie);
  const send = (path: string, body: string | undefined, headers: Record<string, string>) =>
    new PortalClient(on.fake.url).raw(
      "POST",
      path,
      { ...(body ? { "content-type": "application/json" } : {}), ...headers },
      body,
    );

  it("6. CSRF: every state-changing API call without the islands' header, or from another site or origin, is 403 and calls nothing upstream", async () => {
    const refusals: [string, Record<string, string>][] = [
      ["no X-Portal-Request", {}],
      ["X-Portal-Request: 0", { "x-portal-request": "0" }],
      ["Sec-Fetch-Site: cross-site", { "x-portal-request": "1", "sec-fetch-site": "cross-site" }],
      ["Sec-Fetch-Site: same-site", { "x-portal-request": "1", "sec-fetch-site": "same-site" }],
      ["a foreign Origin", { "x-portal-request": "1", origin: "https://evil.example" }],
      ["Origin: null", { "x-portal-request": "1", origin: "null" }],
      ["a look-alike Origin", { "x-portal-request": "1", origin: `${on.fake.url}.evil.example` }],
      ["this host over another scheme", { "x-portal-request": "1", origin: on.fake.url.replace("http:", "https:") }],
      ["this host on another port", { "x-portal-request": "1", origin: otherPort(on.fake.url) }],
    ];
    for (const [path, body, needs] of calls) {
      for (const [what, headers] of refusals) {
        const answer = await send(path, body, { ...headers, cookie: cookieFor(needs) });
        assert.equal(answer.status, 403, `${path} with ${what}: ${answer.text}`);
      }
    }
    assert.deepEqual(on.fake.upstream.calls, []);
    for (const [path, body, needs] of calls) {
      const same = {
        "x-portal-request": "1",
        "sec-fetch-site": "same-origin",
        origin: on.fake.url,
        cookie: cookieFor(needs),
      };
      const answer = await send(path, body, same);
      assert.notEqual(answer.status, 403, `${path} from this origin is accepted`);
    }
    assert.ok(on.fake.upstream.calls.length >= calls.length, "the same calls from this origin do reach the upstream");
  });

  it("6. CSRF: sign out (a plain form) is refused from another site or origin, and the session stays", async () => {
    // A session of its own: a sign-in (as the test above makes) revokes the session it replaces.
    const cookie = (await signIn(on.fake.app, accounts.alice, on.fake.code)).cookieHeader;
    const form = { "content-type": "application/x-www-form-urlencoded", cookie };
    const foreign: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site" },
      { origin: "https://evil.example" },
      { origin: "null" },
      { origin: on.fake.url.replace("http:", "https:") },
      { origin: otherPort(on.fake.url) },
    ];
    for (const headers of foreign) {
      const answer = await new PortalClient(on.fake.url).raw("POST", "/session/logout", { ...form, ...headers }, "");
      assert.equal(answer.status, 403, JSON.stringify(headers));
      assert.equal(answer.headers["set-cookie"], undefined, "the session cookie is left alone");
    }
    const page = await new PortalClient(on.fake.url).raw("GET", "/client/home", { cookie });
    assert.equal(page.status, 200, "still signed in");
  });
});

// server/actions/perform.ts with the /api routes (items 4 and 5): what a forwarded call carries upstream, fresh headers with
// the session's token and nothing of the browser's, and which calls are forwarded at all.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { FastifyRequest } from "fastify";
import { startFakeUpstream } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { refuseCaller } from "#server/actions/perform.ts";
import { type Input, rules } from "#server/actions/rules.ts";
import { Refusal } from "#server/plugins/errors.ts";
import type { Auth } from "#server/session/fields.ts";
import { loadOperations, type Operation } from "#server/upstream/operations.ts";
import { sessionsOnFake } from "#tests/support/portal-on-fake.ts";

const TOKEN = "session-token-from-the-upstream";
/** What an upstream call may carry: what fetch itself sends, the JSON body's headers, and the session's bearer token. */
const allowedHeaders = new Set([
  "host",
  "connection",
  "content-type",
  "content-length",
  "accept",
  "accept-encoding",
  "accept-language",
  "user-agent",
  "sec-fetch-mode",
  "authorization",
]);

const on = sessionsOnFake({ token: TOKEN });
/** A request sent to the listening portal exactly as written (PortalClient.raw). */
const raw = (...args: Parameters<PortalClient["raw"]>) => new PortalClient(on.fake.url).raw(...args);

const json = (body: unknown) => JSON.stringify(body);
const islandHeaders = { "content-type": "application/json", "x-portal-request": "1" };

describe("forwarding (item 4)", () => {
  const browserHeaders = {
    ...islandHeaders,
    authorization: "Bearer browser-supplied",
    "proxy-authorization": "Basic YnJvd3Nlcg==",
    "x-forwarded-for": "203.0.113.9",
    "x-forwarded-host": "evil.example",
    "x-forwarded-proto": "http",
    "x-forwarded-port": "8443",
    "x-real-ip": "203.0.113.9",
    forwarded: "for=203.0.113.9;host=evil.example",
    // The hop-by-hop trick: names the BFF's own headers as hop-by-hop, hoping a proxy strips them.
    connection: "keep-alive, authorization, content-type, x-portal-request",
    "keep-alive": "timeout=5",
    te: "trailers",
    upgrade: "h2c",
    "x-custom": "browser",
  };

  it("4. forwarding: the browser's Cookie, Authorization, X-Forwarded-* and hop-by-hop headers are not passed on; a Connection header cannot strip what the BFF adds", async () => {
    const answer = await raw(
      "POST",
      "/api/web/client/password/test",
      { ...browserHeaders, cookie: `${on.signedInCookie}; other=browser-cookie` },
      json({ userId: "alice", password: "pw" }),
    );
    assert.equal(answer.status, 200, answer.text);
    const [call] = on.fake.upstream.callsTo(/^\/web\/client\/password\/test$/);
    assert.ok(call, "the call was forwarded");
    const names = Object.keys(call.headers);
    assert.deepEqual(
      names.filter((name) => !allowedHeaders.has(name)),
      [],
      `only the BFF's own headers reach the upstream: ${names.join(", ")}`,
    );
    assert.equal(call.headers.authorization, `Bearer ${TOKEN}`, "the bearer token is the session's");
    assert.equal(call.headers["content-type"], "application/json", "the BFF's content type survives Connection");
    assert.doesNotMatch(String(call.headers.connection), /authorization|content-type/i);
    assert.equal(call.headers.cookie, undefined);
  });

  it("4. forwarding: a call that needs no session carries no Authorization, even when the browser sends one", async () => {
    const answer = await raw("POST", "/api/auth/vendor", browserHeaders, json({ username: "vera", password: "pw" }));
    assert.equal(answer.status, 200, answer.text);
    const [call] = on.fake.upstream.callsTo(/^\/auth\/vendor$/);
    assert.ok(call);
    assert.equal(call.headers.authorization, undefined);
    assert.deepEqual(
      Object.keys(call.headers).filter((name) => !allowedHeaders.has(name)),
      [],
    );
  });

  it("4. forwarding: the portal's own calls (permissions, tracking, PDFs) carry the session's token or none, never the browser's headers", async () => {
    const headers = { ...browserHeaders, cookie: on.signedInCookie };
    await raw("GET", "/client/activity", headers);
    await raw("GET", "/pdfs/BankHolidays.pdf", headers);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(on.fake.upstream.calls.length >= 2, "the page visit and the PDF reached the upstream");
    for (const call of on.fake.upstream.calls) {
      assert.ok([undefined, `Bearer ${TOKEN}`].includes(call.headers.authorization), `${call.path}`);
      assert.deepEqual(
        Object.keys(call.headers).filter((name) => !allowedHeaders.has(name)),
        [],
        call.path,
      );
    }
  });
});

const operations = loadOperations();

describe("allowlist (SECURITY.md item 5)", () => {
  // The rules table's forwarded rows: everything else the description declares is the server's own call.
  const exposed: string[] = Object.entries(rules)
    .filter(([, rule]) => rule.islands)
    .map(([operationId]) => operationId);
  const concrete = (path: string) =>
    path
      .replace("{site}", "client")
      .replace("{audience}", "client")
      .replace("{code}", "123456")
      .replace("{fileName}", "BankHolidays.pdf");

  it("5. allowlist: the islands reach the sign-in, MFA, reset and password operations, and nothing the server calls itself", () => {
    for (const operationId of ["loginClient", "validateMfaCode", "resetPassword", "changePassword"])
      assert.ok(exposed.includes(operationId), operationId);
    for (const operationId of ["trackPage", "getUserInfo", "getPdf", "headPdf"])
      assert.ok(!exposed.includes(operationId), operationId);
  });

  it("5. allowlist: a declared operation answers only its own method, an undeclared or server-only one is 404, and the upstream is never reached", async () => {
    for (const operation of operations) {
      const path = `/api${concrete(operation.path)}`;
      const isExposed = exposed.includes(operation.operationId);
      for (const method of ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
        if (isExposed && method === operation.method) continue;
        const answer = await raw(method, path, { ...islandHeaders, cookie: on.signedInCookie }, "{}");
        const expected = isExposed ? 405 : 404;
        assert.equal(answer.status, expected, `${method} ${path}: ${answer.text}`);
        if (expected === 405) assert.equal(answer.headers.allow, operation.method);
      }
    }
    for (const path of ["/api/admin/drop", "/api/web/track", "/api/web/client/user-info", "/api/pdfs/BankHolidays.pdf"])
      assert.equal((await raw("POST", path, islandHeaders, "{}")).status, 404, path);
    assert.deepEqual(on.fake.upstream.calls, []);
  });

  it("5. allowlist: `..`, `%2e%2e`, double-encoded paths and absolute URLs are 404/405 and never reach the upstream", async () => {
    const paths = [
      "/api/web/client/mfa/validate/..",
      "/api/web/client/mfa/validate/%2e%2e",
      "/api/web/client/mfa/validate/%2E%2E",
      "/api/web/client/mfa/validate/.%2e",
      "/api/web/client/mfa/validate/..%2F..",
      "/api/web/client/mfa/validate/%252e%252e",
      "/api/web/client/mfa/validate/12%2F34",
      "/api/web/client/mfa/validate/..%5C..",
      "/api/web/%2e%2e/mfa/generate",
      "/api/web/client/mfa/generate/..",
      "/api/web/client/mfa/generate/../../track",
      "/api/auth/client/../vendor",
      "/api/auth/client/..%2Fvendor",
      "/api/auth/%2e%2e/web/track",
      "/api/%2e%2e/pdfs/BankHolidays.pdf",
      "/api/auth/client%2F..%2F..%2Fweb%2Ftrack",
      "/api/%252e%252e/web/track",
      "/api/..%252F..%252Fweb/track",
      "/api/http://evil.example/auth/client",
      "/api/https:%2F%2Fevil.example/auth/vendor",
      "/api//evil.example/auth/client",
      "/api/\\evil.example/auth/client",
      "/api/auth/client@evil.example",
      "/api/auth/vendor/",
      "/api/auth/vendor;.json",
      "/api/AUTH/vendor",
    ];
    for (const path of paths) {
      const answer = await raw("POST", path, { ...islandHeaders, cookie: on.pendingCookie }, "{}");
      assert.ok([404, 405].includes(answer.status), `${path}: ${answer.status} ${answer.text}`);
    }
    assert.deepEqual(
      on.fake.upstream.calls.map((call) => call.path),
      [],
    );
  });

  it("5. allowlist: an absolute-form request target is served as a path of this origin; the host it names is never contacted", async () => {
    const elsewhere = await startFakeUpstream();
    try {
      const target = `${elsewhere.url}/api/auth/vendor`;
      const answer = await raw("POST", target, islandHeaders, json({ username: "vera", password: "pw" }));
      assert.ok(answer.status < 500, answer.text);
      assert.deepEqual(elsewhere.calls, [], "the named host got nothing");
      const beyond = await raw("POST", `${elsewhere.url}/web/track`, islandHeaders, "{}");
      assert.equal(beyond.status, 404);
      assert.deepEqual(elsewhere.calls, []);
    } finally {
      await elsewhere.close();
    }
  });

  it("5. allowlist: bodies and queries are validated against the spec's schemas before anything is forwarded", async () => {
    const cases: [string, string, string][] = [
      ["/api/auth/client", json({ shortname: "ACME", username: "alice" }), "a required field missing"],
      [
        "/api/auth/client",
        json({ shortname: "ACME", username: "alice", password: "pw", admin: true }),
        "an extra field",
      ],
      ["/api/auth/vendor", json({ username: 7, password: "pw" }), "a number for a string"],
      ["/api/auth/vendor", json({ username: "v".repeat(129), password: "pw" }), "longer than the spec allows"],
      ["/api/auth/vendor", json({ username: "", password: "pw" }), "shorter than the spec allows"],
      ["/api/auth/vendor", json([{ username: "vera", password: "pw" }]), "an array for an object"],
      ["/api/auth/vendor", "null", "null"],
      ["/api/auth/vendor", "{not json", "not JSON"],
      ["/api/auth/vendor?debug=1", json({ username: "vera", password: "pw" }), "an undeclared query parameter"],
      ["/api/auth/client-token", "", "the required uuid missing"],
      ["/api/auth/client-token?uuid=a&uuid=b", "", "a repeated uuid"],
      ["/api/auth/client-token?uuid=x&next=/evil", "", "an extra query parameter"],
      ["/api/web/reset-pwd", json({ emailAddress: "a@b.example" }), "clientShortName missing"],
      ["/api/web/reset-pwd", json({ clientShortName: "", emailAddress: "a".repeat(255) }), "an e-mail too long"],
      ["/api/web/client/password/test", json({ userId: "alice" }), "no current password"],
      ["/api/web/client/password/change", json({ password: "short" }), "a weak new password"],
      ["/api/web/client/password/change", json({ password: "Strong-Password-2026!", userId: "x" }), "an extra field"],
    ];
    for (const [path, body, what] of cases) {
      const headers = { ...islandHeaders, cookie: on.signedInCookie };
      const answer = await raw(
        "POST",
        path,
        body ? headers : { "x-portal-request": "1", cookie: on.signedInCookie },
        body || undefined,
      );
      assert.equal(answer.status, 400, `${what}: ${answer.status} ${answer.text}`);
      const parsed = JSON.parse(answer.text) as { description?: string; errors?: unknown; detail?: string };
      assert.ok(parsed.description ?? parsed.detail, `${what}: a clear message`);
    }
    assert.deepEqual(
      on.fake.upstream.calls.map((call) => call.path),
      [],
    );
  });

  it("5. allowlist: an operation the spec declares without a body forwards none, whatever the browser sends", async () => {
    for (const [path, cookie] of [
      ["/api/auth/client-token?uuid=abc", ""],
      ["/api/web/client/mfa/generate", on.pendingCookie],
    ] as const) {
      const answer = await raw("POST", path, { ...islandHeaders, cookie }, json({ userId: "admin", role: "x" }));
      assert.ok(answer.status < 500, `${path}: ${answer.status}`);
    }
    const forwarded = on.fake.upstream.calls.filter((call) => call.method === "POST");
    assert.equal(forwarded.length, 2);
    for (const call of forwarded) assert.equal(call.body, "", `${call.path} carries no body`);
  });

  it("5. allowlist: a body over the size limit is refused with 413 before the upstream is called", async () => {
    const big = json({ username: "v".repeat(20_000), password: "pw" });
    const answer = await raw("POST", "/api/auth/vendor", islandHeaders, big);
    assert.equal(answer.status, 413);
    assert.match(answer.text, /too large/);
    const form = await raw(
      "POST",
      "/session/logout",
      { "content-type": "application/x-www-form-urlencoded", cookie: on.signedInCookie },
      `x=${"a".repeat(20_000)}`,
    );
    assert.equal(form.status, 413);
    assert.deepEqual(on.fake.upstream.calls, []);
  });
});

describe("whose audience a call names", () => {
  const auth: Auth = { stage: "signed-in", site: "client", userName: "alice", loginMessage: "Success", token: TOKEN };
  /** An operation whose description gives the sites' values to a parameter named neither `site` nor `audience`. */
  const notes: Operation = {
    operationId: "getUserInfo",
    method: "GET",
    path: "/web/{who}/notes",
    reads: "body",
    audienceParams: [
      { in: "path", name: "who" },
      { in: "query", name: "side" },
    ],
  };
  const request = { auth } as unknown as FastifyRequest;
  const input = (params: Record<string, string>, query: Record<string, string> = {}): Input => ({
    params,
    query,
    body: undefined,
    flags: {},
  });
  const refusal = (call: () => void) => {
    try {
      call();
      return undefined;
    } catch (error) {
      return error instanceof Refusal ? error.statusCode : error;
    }
  };

  it("refuses with 403 a signed-in client naming the vendors in any parameter that holds an audience, whatever its name", () => {
    assert.equal(
      refusal(() => refuseCaller("signed-in", request, notes, input({ who: "vendor" }))),
      403,
    );
    assert.equal(
      refusal(() => refuseCaller("signed-in", request, notes, input({ who: "client" }, { side: "vendor" }))),
      403,
    );
  });

  it("lets the caller name its own audience, and reads no audience in a parameter the description does not give one", () => {
    assert.equal(
      refusal(() => refuseCaller("signed-in", request, notes, input({ who: "client" }, { side: "client" }))),
      undefined,
    );
    const plain: Operation = { ...notes, audienceParams: [] };
    assert.equal(
      refusal(() => refuseCaller("signed-in", request, plain, input({ who: "vendor" }))),
      undefined,
    );
  });
});

// server/routes/api.ts against the sandbox over real HTTP: every call of requirements 7, the token kept from the
// browser; and, on a fake upstream, what it refuses before any upstream call (a form body, a code that is not digits).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { downUpstreamUrl, sendJson, startFakeUpstream } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, DEMO_PASSWORD, latestCode, latestMail, signIn } from "#harness/sign-in.ts";
import { ConfigError } from "#server/config.ts";
import { assertRowForEach } from "#server/routes/api.ts";
import { deviceCookieName } from "#server/security/device-cookie.ts";
import { logCapture } from "#tests/support/log-capture.ts";
import { type RunningPortal, sandboxPost, startPortalInProcess } from "#tests/support/portal.ts";
import { portalsOnFakeForFile, sessionsOnFake } from "#tests/support/portal-on-fake.ts";
import { resetLinkPath } from "#tests/support/reset-link.ts";

let portal: RunningPortal;
describe("server/routes/api", () => {
  before(async () => {
    portal = await startPortalInProcess();
  });
  after(() => portal.close());

  const clientLogin = (username: string, password = DEMO_PASSWORD) => ({ shortname: "ACME", username, password });

  describe("POST /auth/client and /auth/vendor", () => {
    it("hold the token in the session and answer the message with tokenHeld", async () => {
      const client = new PortalClient(portal.url);
      const answer = await client.post("/api/auth/client", clientLogin("alice"));
      assert.deepEqual(answer.json(), { message: "Success", tokenHeld: true });
      assert.match(client.cookieHeader, /(^|; )__Host-portal-session=/);
      const vendor = new PortalClient(portal.url);
      assert.deepEqual((await vendor.post("/api/auth/vendor", { username: "vera", password: DEMO_PASSWORD })).json(), {
        message: "Success",
        tokenHeld: true,
      });
    });

    it("answer no token for a wrong password and for an unknown user alike", async () => {
      const wrong = await new PortalClient(portal.url).post(
        "/api/auth/client",
        clientLogin("alice", "Wrong-Password-1!"),
      );
      const unknown = await new PortalClient(portal.url).post("/api/auth/client", clientLogin("nobody"));
      assert.deepEqual(wrong.json(), { tokenHeld: false });
      assert.deepEqual(unknown.json(), { tokenHeld: false });
      assert.equal(wrong.status, unknown.status);
    });

    it("keep no token for a deactivated account", async () => {
      const client = new PortalClient(portal.url);
      const answer = await client.post("/api/auth/client", clientLogin("dora"));
      assert.deepEqual(answer.json(), { message: "Deactivated", tokenHeld: false });
      assert.equal((await client.post("/api/web/client/mfa/generate")).status, 401);
    });

    it("carry the Password Expired message", async () => {
      const answer = await new PortalClient(portal.url).post("/api/auth/vendor", {
        username: "petra",
        password: DEMO_PASSWORD,
      });
      assert.deepEqual(answer.json(), { message: "Password Expired", tokenHeld: true });
    });
  });

  describe("a field longer than the upstream takes", () => {
    it("is refused before any call, by its name in the screen's words: never section 8's bare Action Failed", async () => {
      const long = "x".repeat(5_000);
      const calls: [string, unknown, string][] = [
        ["/api/auth/client", { shortname: "ACME", username: long, password: "pw" }, "User ID is too long."],
        [
          "/api/auth/client",
          { shortname: ` ${long} `, username: "alice", password: "pw" },
          "Company Short Name is too long.",
        ],
        ["/api/auth/vendor", { username: "vera", password: long }, "Password is too long."],
        [
          "/api/web/reset-pwd",
          { clientShortName: "", emailAddress: `${long}@example.com` },
          "Email Address is too long.",
        ],
      ];
      for (const [path, body, words] of calls) {
        const answer = await new PortalClient(portal.url).post(path, body);
        assert.equal(answer.status, 400, path);
        assert.deepEqual(answer.json(), { detail: words }, path);
      }
      const atLimit = await new PortalClient(portal.url).post("/api/auth/client", clientLogin("x".repeat(128)));
      assert.deepEqual(atLimit.json(), { tokenHeld: false }, "a user ID at its limit is asked of the upstream");
    });
  });

  describe("a name with a lone surrogate", () => {
    it("is a name like any other: answered by the upstream, never a 500", async () => {
      // JSON.stringify writes a lone surrogate as its escape: the body is JSON a hostile caller can send.
      const calls: [string, object][] = [
        ["/api/auth/client", { shortname: "\ud800", username: "alice", password: "pw" }],
        ["/api/auth/vendor", { username: "\udc00x", password: "pw" }],
        ["/api/web/reset-pwd", { clientShortName: "ACME", emailAddress: "\ud800@example.com" }],
      ];
      for (const [path, body] of calls) {
        const answer = await new PortalClient(portal.url).post(path, body);
        assert.ok(answer.status < 500, `${path}: ${answer.status} ${answer.text}`);
      }
    });
  });

  describe("a required name of only blanks (issue 37)", () => {
    it("is refused before any call in the form's words, never the schema's", async () => {
      const calls: [string, unknown, string][] = [
        ["/api/auth/client", { shortname: "ACME", username: "   ", password: "pw" }, "User ID is required."],
        ["/api/auth/vendor", { username: "", password: "pw" }, "User ID is required."],
        ["/api/auth/client", { shortname: " ", username: "alice", password: "pw" }, "Company Short Name is required."],
        ["/api/web/reset-pwd", { clientShortName: "ACME", emailAddress: " \t " }, "Email Address is required."],
      ];
      for (const [path, body, words] of calls) {
        const answer = await new PortalClient(portal.url).post(path, body);
        assert.equal(answer.status, 400, path);
        assert.deepEqual(answer.json(), { detail: words }, path);
      }
    });
  });

  describe("POST /web/{site}/mfa/generate and /validate/{code}", () => {
    it("send a code, refuse a wrong one and promote the session on Passed", async () => {
      const client = new PortalClient(portal.url);
      await client.post("/api/auth/client", clientLogin("alice"));
      assert.equal((await client.get("/client/home")).status, 302, "no page before MFA");
      assert.equal((await client.post("/api/web/client/mfa/generate")).status, 200);
      const code = await latestCode(portal.sandboxUrl, "alice@acme.example");
      const wrong = code === "000000" ? "111111" : "000000";
      assert.deepEqual((await client.post(`/api/web/client/mfa/validate/${wrong}`)).json(), [
        { text: "Failed", attemptsLeft: 4 },
      ]);
      assert.deepEqual((await client.post(`/api/web/client/mfa/validate/${code}`)).json(), [{ text: "Passed" }]);
      const home = await client.get("/client/home");
      assert.equal(home.status, 200);
      assert.match(home.text, /Signed in as\b[\s\S]{0,80}>alice</);
    });

    it("answer 401 without a pending sign-in", async () => {
      const client = new PortalClient(portal.url);
      assert.equal((await client.post("/api/web/client/mfa/generate")).status, 401);
      assert.equal((await client.post("/api/web/client/mfa/validate/123456")).status, 401);
    });

    it("refuse the other site's path with 403", async () => {
      const client = new PortalClient(portal.url);
      await client.post("/api/auth/client", clientLogin("alice"));
      assert.equal((await client.post("/api/web/vendor/mfa/generate")).status, 403);
    });

    it("validate again the code this device accepted before (device memory)", async () => {
      const first = new PortalClient(portal.url);
      await signIn(first, accounts.vince, portal.code);
      const code = await latestCode(portal.sandboxUrl, "vince@vendor.example");
      // The same browser's next sign-in: its device cookie kept, its session gone.
      const device = deviceCookieName(portal.config.cookieSecure);
      const second = new PortalClient(portal.url);
      second.cookies.set(device, first.cookies.get(device) ?? "");
      await second.post("/api/auth/vendor", { username: "vince", password: DEMO_PASSWORD });
      assert.deepEqual((await second.post(`/api/web/vendor/mfa/validate/${code}`)).json(), [{ text: "Passed" }]);
    });
  });

  describe("POST /web/reset-pwd", () => {
    it("e-mails a link to a new password and leaves the old one working", async () => {
      const answer = await new PortalClient(portal.url).post("/api/web/reset-pwd", {
        clientShortName: "GLOBEX",
        emailAddress: "gary@globex.example",
      });
      assert.equal(answer.status, 200);
      const mail = await latestMail(portal.sandboxUrl, "gary@globex.example");
      assert.match(resetLinkPath(mail.body), /^\/sandbox\/reset\?token=/);
      const login = await new PortalClient(portal.url).post("/api/auth/client", {
        shortname: "GLOBEX",
        username: "gary",
        password: DEMO_PASSWORD,
      });
      assert.deepEqual(login.json(), { message: "Success", tokenHeld: true });
    });

    it("answers the same for an address with no account", async () => {
      const answer = await new PortalClient(portal.url).post("/api/web/reset-pwd", {
        clientShortName: "",
        emailAddress: "nobody@nowhere.example",
      });
      assert.equal(answer.status, 200);
    });

    it("refuses a body without the e-mail address with a clear 400", async () => {
      const answer = await new PortalClient(portal.url).post("/api/web/reset-pwd", { clientShortName: "" });
      assert.equal(answer.status, 400);
      assert.match(String(answer.json().description), /emailAddress/);
    });
  });

  describe("POST /web/{audience}/password/test and /change", () => {
    it("test the current password, then change it; the expired state ends", async () => {
      const client = new PortalClient(portal.url);
      await signIn(client, accounts.paula, portal.code);
      const [login] = client.answers;
      assert.equal(login?.json().message, "Password Expired");
      assert.equal((await client.get("/client/home")).headers.location, "/mfa", "only the change form is reachable");
      const wrongTest = await client.post("/api/web/client/password/test", {
        userId: "paula",
        password: "Not-Her-Password-1",
      });
      assert.equal(wrongTest.status, 400);
      const test = await client.post("/api/web/client/password/test", { userId: "paula", password: DEMO_PASSWORD });
      assert.equal(test.status, 200);
      const change = await client.post("/api/web/client/password/change", { password: "Brand-New-Pass-2026!" });
      assert.equal(change.status, 200);
      assert.equal((await client.get("/client/home")).status, 200);
    });

    it("refuse a weak new password with the requirements' message before calling the upstream", async () => {
      const client = new PortalClient(portal.url);
      await signIn(client, accounts.vera, portal.code);
      const short = await client.post("/api/web/vendor/password/change", { password: "Short1!" });
      assert.deepEqual(
        [short.status, short.json()],
        [400, { description: "Password must be at least 12 characters in length." }],
      );
      const weak = await client.post("/api/web/vendor/password/change", { password: "alllowercase12" });
      assert.deepEqual(
        [weak.status, weak.json()],
        [400, { description: "Password does not meet password requirements" }],
      );
    });

    it("answer 401 and end a session that is not signed in", async () => {
      const client = new PortalClient(portal.url);
      await client.post("/api/auth/client", clientLogin("alice"));
      assert.equal(
        (await client.post("/api/web/client/password/change", { password: "Brand-New-Pass-2026!" })).status,
        401,
      );
    });
  });

  describe("POST /auth/{site}-token (login by link)", () => {
    it("signs the user in directly with a valid link, once", async () => {
      const { uuid } = (await sandboxPost(portal.sandboxUrl, "/sandbox/link-login", {
        site: "vendor",
        username: "vera",
      })) as {
        uuid: string;
      };
      const client = new PortalClient(portal.url);
      assert.deepEqual((await client.post(`/api/auth/vendor-token?uuid=${uuid}`)).json(), {
        tokenHeld: true,
        message: "Success",
      });
      assert.equal((await client.get("/vendor/home")).status, 200);
      const again = new PortalClient(portal.url);
      assert.deepEqual((await again.post(`/api/auth/vendor-token?uuid=${uuid}`)).json(), { tokenHeld: false });
    });

    it("answers no token for an unknown link", async () => {
      const answer = await new PortalClient(portal.url).post("/api/auth/client-token?uuid=not-a-link");
      assert.deepEqual(answer.json(), { tokenHeld: false });
    });
  });

  describe("GET /pdfs/{fileName}", () => {
    it("serves each PDF from the portal's origin to a signed-in user", async () => {
      const client = new PortalClient(portal.url);
      await signIn(client, accounts.alice, portal.code);
      for (const file of ["BankHolidays.pdf", "ExpiringInvoicesPolicy.pdf", "VendorLetter.pdf"]) {
        const answer = await client.get(`/pdfs/${file}`);
        assert.equal(answer.status, 200);
        assert.equal(answer.headers["content-type"], "application/pdf");
        assert.equal(answer.text.slice(0, 5), "%PDF-");
      }
      assert.equal((await client.get("/pdfs/Other.pdf")).status, 404);
      assert.equal((await new PortalClient(portal.url).get("/pdfs/BankHolidays.pdf")).status, 401);
    });
  });

  describe("session expiry (requirements 4.5)", () => {
    it("an upstream 401 clears the session and the login page says it expired", async () => {
      const client = new PortalClient(portal.url);
      await signIn(client, accounts.vera, portal.code);
      await sandboxPost(portal.sandboxUrl, "/sandbox/tokens/revoke", { site: "vendor", username: "vera" });
      const answer = await client.post("/api/web/vendor/password/test", { userId: "vera", password: DEMO_PASSWORD });
      assert.equal(answer.status, 401);
      const login = await client.get("/");
      assert.match(login.text, /Your session has expired. Please Login again/);
    });
  });

  describe("token custody", () => {
    it("no answer to the browser ever carries an upstream token", async () => {
      const client = new PortalClient(portal.url);
      await signIn(client, accounts.alice, portal.code);
      await client.get("/client/home");
      await client.get("/mfa");
      const tokens = [...client.seen.join("\n").matchAll(/"token"\s*:/g)];
      assert.equal(tokens.length, 0);
      assert.doesNotMatch(client.seen.join("\n"), /Bearer/);
    });

    it("sign out ends the session", async () => {
      const client = new PortalClient(portal.url);
      await signIn(client, accounts.alice, portal.code);
      const out = await client.post("/session/logout", undefined, {
        "content-type": "application/x-www-form-urlencoded",
      });
      assert.equal(out.status, 303);
      assert.equal(out.headers.location, "/?signed-out");
      assert.equal(
        out.headers["clear-site-data"],
        '"cache"',
        "the device cookie stays: the session's is deleted by name",
      );
      assert.match((await client.get("/?signed-out")).text, /You have signed out\./);
      assert.equal((await client.get("/client/home")).status, 302);
    });
  });

  describe("forwarding", () => {
    it("reaches only declared operations: an unknown API path is 404, tracking is not exposed", async () => {
      const client = new PortalClient(portal.url);
      assert.equal((await client.post("/api/web/track", { page: "/x" })).status, 404);
      assert.equal((await client.get("/api/web/client/user-info")).status, 404);
      assert.equal((await client.post("/api/admin/drop")).status, 404);
    });

    it("refuses a state-changing call without the islands' header or from another site", async () => {
      const client = new PortalClient(portal.url);
      const noHeader = await client.request(
        "POST",
        "/api/web/reset-pwd",
        { clientShortName: "", emailAddress: "a@b.c" },
        {
          "x-portal-request": "",
        },
      );
      assert.equal(noHeader.status, 403);
      const crossSite = await client.post(
        "/api/web/reset-pwd",
        { clientShortName: "", emailAddress: "a@b.c" },
        {
          "sec-fetch-site": "cross-site",
        },
      );
      assert.equal(crossSite.status, 403);
    });
  });

  describe("a failed generate (requirements 4.2)", () => {
    it("clears the pending token when the upstream answers 500, so the next call finds the session expired", async () => {
      // An upstream that signs in but cannot send codes.
      const upstream = await startFakeUpstream((call, response) =>
        call.path === "/auth/client"
          ? sendJson(response, 200, { token: "t-123", message: "Success" })
          : sendJson(response, 500, { detail: "mail server down" }),
      );
      const broken = await startPortalInProcess({ upstreamUrl: upstream.url });
      try {
        const client = new PortalClient(broken.url);
        await client.post("/api/auth/client", clientLogin("alice"));
        assert.equal((await client.post("/api/web/client/mfa/generate")).status, 500);
        assert.equal((await client.post("/api/web/client/mfa/validate/123456")).status, 401);
        assert.match((await client.get("/")).text, /Your session has expired. Please Login again/);
      } finally {
        await broken.close();
        await upstream.close();
      }
    });
  });

  describe("a forward the upstream cannot take", () => {
    it("writes one warn line, the portal's own, not the proxy's beside it", async () => {
      const logs = logCapture("dead-upstream");
      const portal = await startPortalInProcess({
        upstreamUrl: await downUpstreamUrl(),
        listen: false,
        logs: logs.stream,
      });
      try {
        const answer = await new PortalClient(portal.app).post("/api/auth/client", clientLogin("alice"));
        assert.equal(answer.status, 502);
        const warned = logs.lines
          .map((line) => JSON.parse(line) as { level: number; msg: string })
          .filter((line) => line.level === 40);
        assert.deepEqual(
          warned.map((line) => line.msg),
          ["upstream fault"],
        );
      } finally {
        await portal.close();
      }
    });
  });

  /** A portal on a fake upstream, closed after the file's tests. */
  const onFake = portalsOnFakeForFile();

  describe("a body on /api", () => {
    it("a form-encoded body on /api is refused with 415 before anything is spent or forwarded", async () => {
      const fakeUpstream = await onFake();
      const client = await signIn(fakeUpstream.app, accounts.alice, fakeUpstream.code);
      const calls = fakeUpstream.upstream.calls.length;
      const answer = await client.post(
        "/api/web/client/password/test",
        new URLSearchParams({ userId: "alice", password: "x" }),
      );
      assert.equal(answer.status, 415);
      assert.equal(answer.json().code, "invalid-request");
      assert.equal(fakeUpstream.upstream.calls.length, calls, "nothing reached the upstream");
    });
  });

  /** A portal on a fake upstream, with a pending session, for what is refused before the upstream. */
  const on = sessionsOnFake();

  const validate = (code: string) =>
    new PortalClient(on.fake.url).raw("POST", `/api/web/client/mfa/validate/${code}`, {
      "x-portal-request": "1",
      cookie: on.pendingCookie,
    });

  describe("the MFA code's characters", () => {
    it("refuses a code with anything but digits before any upstream call, saying which field is wrong", async () => {
      const refused = [
        "12a456",
        "%E2%80%AE123456",
        "123%00456",
        "12%2034",
        "%20123456",
        "%EF%BC%91%EF%BC%92",
        "-12345",
      ];
      for (const code of refused) {
        const answer = await validate(code);
        assert.equal(answer.status, 400, `${code}: ${answer.text}`);
        const body = JSON.parse(answer.text) as { code?: string; description?: string };
        assert.equal(body.code, "invalid-request", code);
        assert.match(String(body.description), /^Invalid request: params\/code must match pattern/, code);
      }
      assert.deepEqual(on.fake.upstream.calls, [], "no refused code reached the upstream");
    });

    it("sends a code of digits on", async () => {
      const answer = await validate("424242");
      assert.equal(answer.status, 200, answer.text);
      assert.equal(on.fake.upstream.callsTo(/mfa\/validate\/424242$/).length, 1);
    });
  });

  describe("a description edited after the build", () => {
    it("stops the start with one line naming each operation the build's rules table has no row for", () => {
      assert.doesNotThrow(() => assertRowForEach([{ operationId: "loginClient" }, { operationId: "getPdf" }]));
      const unknown = [{ operationId: "listWidgets" }, { operationId: "loginClient" }, { operationId: "toString" }];
      assert.throws(
        () => assertRowForEach(unknown as Parameters<typeof assertRowForEach>[0]),
        (error: Error) =>
          error instanceof ConfigError && // printed as its message alone, no stack (server/main.ts, sandbox/launch.ts)
          /declares listWidgets, toString, which this build's rules table \(server\/actions\/rules\.ts\) has no row for/.test(
            error.message,
          ) &&
          /npm run build/.test(error.message),
      );
    });
  });
});

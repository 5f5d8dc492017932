// SECURITY.md item 15: every sign-in outcome is logged as a JSON line with a request id, and no secret ever is.
// SECURITY.md's break B14: a path is logged as the route it matched, so an encoded path cannot carry a code into the log.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { PortalClient } from "#harness/portal-client.ts";
import { DEMO_PASSWORD } from "#harness/sign-in.ts";
import type { RunningSandbox } from "#sandbox/app.ts";
import { nameDigest } from "#server/account/person.ts";
import { type LoggedPortal, logCapture, startLoggedPortal } from "#tests/support/log-capture.ts";
import { sandboxPost, TEST_SESSION_KEY } from "#tests/support/portal.ts";
import { lockOutVince } from "#tests/support/vendor-lockout.ts";

const WRONG_PASSWORD = "Wrong-Password-4-Logs!";
const NEW_PASSWORD = "Brand-New-Logs-2026!";

type LogLine = Record<string, unknown> & { msg?: string; reqId?: string; event?: string; outcome?: string };

/** Every JSON line the app writes, kept here and appended to the run's logs for scripts/check-logs.ts. */
const { stream, lines } = logCapture("security-logs");

/** Everything secret that crossed the wire: tokens the upstream issued, codes, cookies, link ids. */
const secrets = new Set<string>([DEMO_PASSWORD, WRONG_PASSWORD, NEW_PASSWORD, TEST_SESSION_KEY]);

let portal: LoggedPortal;
let sandbox: RunningSandbox;
let app: FastifyInstance;

describe("server/plugins/logging", () => {
  before(async () => {
    const limits = { MFA_MAX_WRONG_CODES: "2", RATE_LIMIT_USER_PER_MINUTE: "4", RATE_LIMIT_IP_PER_MINUTE: "1000" };
    portal = await startLoggedPortal(stream, secrets, limits);
    ({ app, sandbox } = portal);
  });
  after(() => portal.close());

  /** A visitor whose every cookie value is remembered as a secret. */
  function visitor(): PortalClient {
    const v = new PortalClient(app);
    const request = v.request.bind(v);
    v.request = async (...args) => {
      const answer = await request(...args);
      for (const cookie of answer.cookies) if (cookie.value.length > 20) secrets.add(cookie.value.split(";")[0] ?? "");
      return answer;
    };
    return v;
  }

  const code = (email: string) => portal.code(email);

  /** A health probe: a bare GET, no islands' header. */
  const probe = () => new PortalClient(app, { islandsHeader: false }).get("/healthz");

  describe("a name typed before the upstream accepted it", () => {
    it("is logged as a digest, so a password typed into the user ID field never reaches a line", async () => {
      const typed = "Alices-Password-In-The-Wrong-Field-2026!";
      const before = lines.length;
      const answer = await visitor().post("/api/auth/client", { shortname: "ACME", username: typed, password: "x" });
      assert.equal(answer.json().tokenHeld, false);
      const written = lines.slice(before);
      assert.ok(
        written.some((line) => line.includes('"userDigest"')),
        "the attempt is logged, by a digest",
      );
      assert.ok(
        written.some((line) => line.includes("sign-in.failed")),
        "and so is its security event",
      );
      for (const line of written) assert.ok(!line.toLowerCase().includes(typed.toLowerCase()), line);
    });
  });

  describe("logs (item 15)", () => {
    it("15. logs: every sign-in outcome is a JSON line with a request id, and no password, code, token or cookie is in any line", async () => {
      const client = (username: string, password = DEMO_PASSWORD) => ({ shortname: "ACME", username, password });

      const alice = visitor();
      await alice.post("/api/auth/client", client("alice"));
      await alice.post("/api/web/client/mfa/generate");
      await alice.post(`/api/web/client/mfa/validate/${await code("alice@acme.example")}`);
      await alice.get("/client/home");
      await alice.post("/session/logout");

      await visitor().post("/api/auth/client", client("victor", WRONG_PASSWORD));
      await visitor().post("/api/auth/client", client("no-such-user"));
      await visitor().post("/api/auth/client", client("dora"));

      const paula = visitor();
      await paula.post("/api/auth/client", client("paula"));
      await paula.post("/api/web/client/mfa/generate");
      await paula.post(`/api/web/client/mfa/validate/${await code("paula@acme.example")}`);
      await paula.post("/api/web/client/password/test", { userId: "paula", password: DEMO_PASSWORD });
      await paula.post("/api/web/client/password/change", { password: NEW_PASSWORD });

      const vince = visitor();
      await lockOutVince(vince, code, secrets);

      const { uuid } = (await sandboxPost(sandbox.url, "/sandbox/link-login", {
        site: "vendor",
        username: "vera",
      })) as {
        uuid: string;
      };
      secrets.add(uuid);
      const vera = visitor();
      await vera.post(`/api/auth/vendor-token?uuid=${uuid}`);
      await visitor().post("/api/auth/vendor-token?uuid=not-a-link-at-all");
      await sandboxPost(sandbox.url, "/sandbox/tokens/revoke", { site: "vendor", username: "vera" });
      await vera.post("/api/web/vendor/password/test", { userId: "vera", password: DEMO_PASSWORD });

      for (let attempt = 0; attempt < 5; attempt++)
        await visitor().post("/api/auth/client", client("hammer", WRONG_PASSWORD));
      await probe(); // lets the last lines reach the stream

      const parsed: LogLine[] = lines.map((line) => JSON.parse(line) as LogLine);
      const find = (what: string, match: (line: LogLine) => boolean) => {
        const line = parsed.find(match);
        assert.ok(line, `${what} is logged`);
        assert.ok(typeof line.reqId === "string" && line.reqId.length > 0, `${what} carries the request id`);
        return line;
      };
      const is = (event: string, outcome?: string, user?: string) => (line: LogLine) =>
        line.event === event &&
        (outcome === undefined || line.outcome === outcome) &&
        (user === undefined || line.user === user);
      assert.equal(find("a sign-in waiting for its code", is("sign-in", "pending-mfa", "alice")).company, "ACME");
      // A name the upstream did not accept is logged by its digest only (a password typed as the user ID stays out).
      const digested = (name: string) => (line: LogLine) =>
        line.userDigest === nameDigest(name) && line.user === undefined;
      find("a wrong password", (line) => is("sign-in", "invalid")(line) && digested("victor")(line));
      find("an unknown user", (line) => is("sign-in", "invalid")(line) && digested("no-such-user")(line));
      find("a deactivated account", (line) => is("sign-in", "deactivated")(line) && digested("dora")(line));
      const expired = find("an expired password", is("sign-in", "pending-mfa", "paula"));
      assert.equal(expired.loginMessage, "Password Expired");
      const passed = find("a passed code", is("mfa", "passed", "alice"));
      assert.equal(passed.company, "ACME", "a user ID alone names a user of every company that has one");
      find("a refused code", is("mfa", "failed", "vince"));
      find("too many refused codes", is("mfa", "limit", "vince"));
      find("a link sign-in", is("link-sign-in", "signed-in"));
      find("a refused link", is("link-sign-in", "invalid"));
      const throttled = find("a throttled attempt", is("throttled"));
      assert.equal(throttled.msg, "request completed", "said on its request's own line: a flood adds no line");
      find("a sign out", is("sign-out"));
      find("a session the upstream expired", is("session-expired"));
      assert.ok(
        parsed.filter((line) => line.msg === "request completed").every((line) => line.reqId),
        "every request line has its id",
      );

      // A secret counts where it stands alone: a code's digits inside a timing such as 6.5900000041 are not a code.
      const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      const patterns = [...secrets].map((secret) => new RegExp(`(?<![\\w.])${literal(secret)}(?![\\w])`));
      for (const secret of [...secrets].slice(-3)) {
        const planted = `{"msg":"oops","header":"Bearer ${secret}","cookie":"s=${secret}%3Bx"}`;
        assert.ok(
          patterns.some((pattern) => pattern.test(planted)),
          "the scan would see a planted secret",
        );
      }
      const leaks: string[] = [];
      for (const line of lines)
        for (const pattern of patterns)
          if (pattern.test(line)) leaks.push(`${pattern.source.slice(0, 24)}… in ${line.slice(0, 160)}`);
      assert.ok(secrets.size > 10, `secrets were collected (${secrets.size})`);
      assert.deepEqual(leaks, [], "no secret in any log line");
      for (const line of lines) {
        assert.doesNotMatch(line, /Bearer\s+\S/i);
        assert.doesNotMatch(line, /"(token|password|cookie)"\s*:\s*"[^"[]/i);
        assert.doesNotMatch(line, /\/mfa\/validate\/\d/);
        assert.doesNotMatch(line, /[?&]uuid=[^&\s"]/);
      }
    });
  });

  describe("the breaks SECURITY.md numbers B1 to B15", () => {
    it("B14: a code sent to /mfa/validat%65/{code} reaches the validate operation, and no log line carries it", async () => {
      const written = lines.length;
      const gary = visitor();
      await gary.post("/api/auth/client", { shortname: "GLOBEX", username: "gary", password: DEMO_PASSWORD });
      await gary.post("/api/web/client/mfa/generate");
      const right = await code("gary@globex.example");
      const wrong = right === "424242" ? "424243" : "424242";
      secrets.add(wrong);
      const answer = await gary.post(`/api/web/client/mfa/validat%65/${wrong}`);
      assert.equal(answer.json()[0].text, "Failed", "the validate operation answered the code");
      const other = await gary.post(`/api/web/client/mfa/validat%2565/${wrong}`);
      assert.equal(other.status, 404, "a doubly encoded name is no operation");
      await probe(); // lets the last lines reach the stream

      const fresh = lines.slice(written);
      const urls = fresh.map((line) => (JSON.parse(line) as { req?: { url?: string } }).req?.url).filter(Boolean);
      assert.ok(urls.includes("/api/web/client/mfa/validate/***"), `the matched route is logged: ${urls.join(" ")}`);
      const leaking = fresh.filter((line) => line.includes(wrong));
      assert.deepEqual(leaking, [], "no log line carries the code");
    });
  });
});

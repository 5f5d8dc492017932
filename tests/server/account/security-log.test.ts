// The security log: each event writes one line holding the request id, the person, a digest of the session id, the
// address and the device, and nothing else: never a token, a password, a code, a cookie or a session id. Each event
// is also kept in the person's recent activity.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { PortalClient } from "#harness/portal-client.ts";
import { DEMO_PASSWORD } from "#harness/sign-in.ts";
import type { RunningSandbox } from "#sandbox/app.ts";
import { nameDigest, personOf } from "#server/account/person.ts";
import { type SecurityEvent, securityEvents, sessionDigest } from "#server/account/security-log.ts";
import { SESSIONS_PER_PERSON } from "#server/account/sessions.ts";
import { END_SESSIONS_PATH } from "#server/loaders/account-view.ts";
import { type LoggedPortal, logCapture, startLoggedPortal } from "#tests/support/log-capture.ts";
import { sandboxPost, TEST_SESSION_KEY } from "#tests/support/portal.ts";
import { type SessionCodec, sessionCodec } from "#tests/support/session-codec.ts";
import { lockOutVince } from "#tests/support/vendor-lockout.ts";
import { until } from "#tests/support/waiting.ts";
import { END_OTHERS_HEADER } from "#web/api/end-others.ts";

const WRONG_PASSWORD = "Wrong-Password-4-Security!";
const NEW_PASSWORD = "Brand-New-Security-2026!";
const USER_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const MAC_FIREFOX = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:121.0) Gecko/20100101 Firefox/121.0";

/** The fields a security line may hold: pino's own, and the security log's. */
const ALLOWED = new Set(["level", "time", "pid", "hostname", "reqId", "msg"]);
for (const field of ["event", "requestId", "person", "session", "address", "device", "sessionDevice", "sessionAddress"])
  ALLOWED.add(field);

const { stream, lines } = logCapture("security-log");
const secrets = new Set<string>([DEMO_PASSWORD, WRONG_PASSWORD, NEW_PASSWORD, TEST_SESSION_KEY]);
const sids = new Set<string>();
let portal: LoggedPortal;
let sandbox: RunningSandbox;
let app: FastifyInstance;
let codec: SessionCodec;
let time = Date.now();

describe("server/account/security-log", () => {
  before(async () => {
    const limits = {
      MFA_MAX_WRONG_CODES: "2",
      RATE_LIMIT_USER_PER_MINUTE: "100000",
      RATE_LIMIT_IP_PER_MINUTE: "100000",
    };
    portal = await startLoggedPortal(stream, secrets, limits, () => time);
    ({ app, sandbox } = portal);
    codec = await sessionCodec(portal.config);
  });
  after(() => portal.close());

  /** A browser whose every cookie value and session id is remembered as a secret. */
  function visitor(userAgent = USER_AGENT): PortalClient {
    const client = new PortalClient(app);
    client.headers = { "user-agent": userAgent };
    const request = client.request.bind(client);
    client.request = async (...args) => {
      const answer = await request(...args);
      for (const cookie of answer.cookies) {
        if (cookie.value.length <= 20) continue;
        secrets.add(cookie.value);
        const sid = codec.decode(encodeURIComponent(cookie.value))?.get("sid");
        if (sid) sids.add(sid);
      }
      return answer;
    };
    return client;
  }

  const code = (email: string) => portal.code(email);

  async function signInAlice(): Promise<PortalClient> {
    const alice = visitor();
    await alice.post("/api/auth/client", { shortname: "ACME", username: "alice", password: DEMO_PASSWORD });
    await alice.post("/api/web/client/mfa/generate");
    const verdict = await alice.post(`/api/web/client/mfa/validate/${await code("alice@acme.example")}`);
    assert.deepEqual(verdict.json(), [{ text: "Passed" }]);
    return alice;
  }

  type Line = Record<string, unknown>;
  const parsed = (): Line[] => lines.map((line) => JSON.parse(line) as Line);
  const linesOf = (event: SecurityEvent) => parsed().filter((line) => line.event === event && line.requestId);

  /** Waits for the event's line, then reads it: the request's id, the person, the address, the device, and no secret. */
  async function readLine(event: SecurityEvent, person: string): Promise<Line> {
    await until(() => linesOf(event).some((line) => line.person === person), 3_000, `the ${event} line`);
    const line = linesOf(event).find((candidate) => candidate.person === person) as Line;
    assert.deepEqual(
      Object.keys(line).filter((key) => !ALLOWED.has(key)),
      [],
      `${event}: no field but the security log's`,
    );
    assert.equal(line.requestId, line.reqId, `${event}: the request id`);
    assert.equal(line.address, "127.0.0.1", `${event}: the address`);
    assert.equal(line.device, "Chrome on Windows", `${event}: the device`);
    if (line.session !== undefined) {
      assert.match(String(line.session), /^[\w-]{22}$/, `${event}: a digest of the session id`);
      assert.ok(
        [...sids].some((sid) => sessionDigest(sid) === line.session),
        `${event}: the digest of a session of this run`,
      );
    }
    const text = JSON.stringify(line);
    for (const secret of [...secrets, ...sids]) assert.ok(!text.includes(secret), `${event}: no secret in the line`);
    assert.doesNotMatch(text, /Bearer|"(token|password|code|cookie)"/i);
    return line;
  }

  const alice = personOf({ site: "client", company: "ACME", userName: "alice" });
  const victor = personOf({ site: "client", company: "ACME", userName: "victor" });

  describe("the security log", () => {
    it("names each event once, and each name is documented", async () => {
      const { readFile } = await import("node:fs/promises");
      const docs = await readFile(new URL("../../../docs/security-log.md", import.meta.url), "utf8");
      for (const event of Object.keys(securityEvents)) assert.ok(docs.includes(`\`${event}\``), `${event} documented`);
    });

    it("sign-in passed, MFA code sent, MFA passed, sign-out", async () => {
      const client = await signInAlice();
      await readLine("sign-in.passed", alice);
      await readLine("mfa.code-sent", alice);
      await readLine("mfa.passed", alice);
      await client.post("/session/logout");
      await readLine("sign-out", alice);
    });

    it("sign-in failed, and deactivated: the name no upstream accepted is logged by its digest", async () => {
      await visitor().post("/api/auth/client", { shortname: "ACME", username: "victor", password: WRONG_PASSWORD });
      await readLine("sign-in.failed", nameDigest(victor));
      const kept = await app.account?.activity.recent(victor);
      assert.deepEqual(kept?.events, [], "a failed sign-in of someone never signed in leaves nothing in the store");
      assert.deepEqual(kept?.failures.periods, [], "nor any count");
      await visitor().post("/api/auth/client", { shortname: "ACME", username: "dora", password: DEMO_PASSWORD });
      await readLine(
        "sign-in.deactivated",
        nameDigest(personOf({ site: "client", company: "ACME", userName: "dora" })),
      );
    });

    it("MFA code wrong, and locked out", async () => {
      const vince = visitor();
      await lockOutVince(vince, code, secrets);
      const person = personOf({ site: "vendor", userName: "vince" });
      await readLine("mfa.code-wrong", person);
      await readLine("mfa.locked-out", person);
    });

    it("password test failed, password changed", async () => {
      const paula = visitor();
      await paula.post("/api/auth/client", { shortname: "ACME", username: "paula", password: DEMO_PASSWORD });
      await paula.post("/api/web/client/mfa/generate");
      await paula.post(`/api/web/client/mfa/validate/${await code("paula@acme.example")}`);
      await paula.post("/api/web/client/password/test", { userId: "paula", password: WRONG_PASSWORD });
      const person = personOf({ site: "client", company: "ACME", userName: "paula" });
      await readLine("password.test-failed", person);
      await paula.post("/api/web/client/password/test", { userId: "paula", password: DEMO_PASSWORD });
      const changed = await paula.post("/api/web/client/password/change", { password: NEW_PASSWORD });
      assert.equal(changed.status, 200);
      await readLine("password.changed", person);
    });

    it("a link sign-in, and its session ended by the upstream's 401", async () => {
      const { uuid } = (await sandboxPost(sandbox.url, "/sandbox/link-login", {
        site: "vendor",
        username: "vera",
      })) as {
        uuid: string;
      };
      secrets.add(uuid);
      const vera = visitor();
      await vera.post(`/api/auth/vendor-token?uuid=${uuid}`);
      const person = personOf({ site: "vendor", userName: "vera" });
      await readLine("sign-in.link", person);
      await sandboxPost(sandbox.url, "/sandbox/tokens/revoke", { site: "vendor", username: "vera" });
      await vera.post("/api/web/vendor/password/test", { userId: "vera", password: DEMO_PASSWORD });
      await readLine("session-ended.upstream-refused", person);
    });

    it("sessions ended by the idle timeout and by the absolute lifetime", async () => {
      const idle = await signInAlice();
      time += 31 * 60_000; // past SESSION_IDLE_MINUTES (30)
      await idle.get("/client/home");
      await readLine("session-ended.idle", alice);
      const old = await signInAlice();
      for (let step = 0; step < 25; step += 1) {
        time += 29 * 60_000;
        await old.get(step % 2 ? "/client/home" : "/client/users/change-password");
      }
      await readLine("session-ended.lifetime", alice);
    });

    it("sessions ended by the person from another device, and by a password change", async () => {
      const gary = personOf({ site: "client", company: "GLOBEX", userName: "gary" });
      const signInGary = async (userAgent = USER_AGENT) => {
        const client = visitor(userAgent);
        await client.post("/api/auth/client", { shortname: "GLOBEX", username: "gary", password: DEMO_PASSWORD });
        await client.post("/api/web/client/mfa/generate");
        await client.post(`/api/web/client/mfa/validate/${await code("gary@globex.example")}`);
        return client;
      };
      await signInGary(MAC_FIREFOX);
      const here = await signInGary();
      // The page's own form: no islands' header.
      const form = await new PortalClient(app, { islandsHeader: false }).post(
        END_SESSIONS_PATH,
        new URLSearchParams({ session: "all", password: DEMO_PASSWORD }),
        { cookie: here.cookieHeader, "user-agent": USER_AGENT },
      );
      assert.equal(form.headers.location, "/client/users/change-password?sessions=ended&count=1#sessions");
      const ended = await readLine("session-ended.by-person", gary);
      assert.deepEqual(
        [ended.sessionDevice, ended.sessionAddress],
        ["Firefox on macOS", "127.0.0.1"],
        "the line names where the ended session was signed in, beside who ended it",
      );
      await signInGary(MAC_FIREFOX);
      await here.post("/api/web/client/password/test", { userId: "gary", password: DEMO_PASSWORD });
      const changed = await here.request(
        "POST",
        "/api/web/client/password/change",
        { password: NEW_PASSWORD },
        { [END_OTHERS_HEADER]: "1" },
      );
      assert.equal(changed.status, 200, changed.text);
      const changedLine = await readLine("session-ended.password-changed", gary);
      assert.equal(changedLine.sessionDevice, "Firefox on macOS");
      for (const event of ["session-ended.by-person", "session-ended.password-changed"] as const)
        assert.equal(linesOf(event).filter((line) => line.person === gary).length, 1, `one ${event} line per ending`);
      const rows = (await app.account.activity.recent(gary)).events.filter(({ event }) =>
        event.startsWith("session-ended"),
      );
      assert.deepEqual(
        rows.map(({ event, device, address }) => [event, device, address]),
        [
          ["session-ended.password-changed", "Firefox on macOS", "127.0.0.1"],
          ["session-ended.by-person", "Firefox on macOS", "127.0.0.1"],
        ],
        "one row per ending in the activity, naming the ended session's device and address",
      );
    });

    it(`a sign-in past ${SESSIONS_PER_PERSON} sessions ends the oldest`, async () => {
      for (let count = 0; count <= SESSIONS_PER_PERSON; count += 1) await signInAlice();
      await readLine("session-ended.limit", alice);
    });

    it("keeps the person's last 20 events in their recent activity, the newest first", async () => {
      const { events } = await (app.account?.activity.recent(alice) ?? Promise.reject(new Error("no account state")));
      assert.equal(events.length, 20);
      const names = events.map(({ event }) => event);
      assert.ok(names.includes("session-ended.limit") && names.includes("mfa.passed"), names.join(" "));
      assert.ok(events.every((event, index) => index === 0 || (events[index - 1]?.at ?? 0) >= event.at));
      assert.ok(events.every(({ device, address }) => device === "Chrome on Windows" && address === "127.0.0.1"));
    });
  });
});

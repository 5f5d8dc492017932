// sandbox/launch.ts as `npm start` starts it, in its own process: the refusals, the sandbox's banner and what it prints;
// in front of an upstream, the portal alone.

import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as delay } from "node:timers/promises";
import { forwardTo, startFakeUpstream } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, DEMO_PASSWORD, mailboxCode, signIn } from "#harness/sign-in.ts";
import { startSandbox } from "#sandbox/app.ts";
import { seedAccounts } from "#sandbox/seed.ts";
import { loadSqlite } from "#sandbox/sqlite.ts";
import { shutdownGraceMs, stopTimings } from "#server/plugins/shutdown.ts";
import { TEST_SESSION_KEY } from "#tests/support/portal.ts";
import { scaled, TIME_FACTOR } from "#tests/support/waiting.ts";

const root = new URL("../..", import.meta.url).pathname;

type Started = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

/** `node --import tsx sandbox/launch.ts` with only this environment (and PATH); stdout and stderr read together. */
function startMain(env: NodeJS.ProcessEnv): Started {
  const child = spawn(process.execPath, ["--import", "tsx", "sandbox/launch.ts"], {
    cwd: root,
    env: { PATH: process.env.PATH, HOST: "127.0.0.1", SANDBOX_DB: ":memory:", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = once(child, "exit").then(([code]) => code as number | null);
  return { child, output: () => output, exited };
}

/** The exit code, or "still running" after the time given. */
async function exitWithin(started: Started, ms: number): Promise<number | null | "still running"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"still running">((resolve) => {
    timer = setTimeout(() => resolve("still running"), scaled(ms));
  });
  const result = await Promise.race([started.exited, timeout]);
  clearTimeout(timer);
  return result;
}

/** Waits until the output so far passes `test` (a pattern, or a count of lines). */
async function waitFor(started: Started, test: RegExp | ((output: string) => boolean), ms = 20_000): Promise<void> {
  const passes = typeof test === "function" ? test : (output: string) => test.test(output);
  const deadline = Date.now() + scaled(ms);
  while (!passes(started.output())) {
    if (started.child.exitCode !== null) throw new Error(`exited ${started.child.exitCode}:\n${started.output()}`);
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${test}:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function stop(started: Started): Promise<void> {
  if (started.child.exitCode !== null || started.child.signalCode !== null) return;
  started.child.kill("SIGTERM");
  if ((await exitWithin(started, 15_000)) === "still running") started.child.kill("SIGKILL");
}

async function heldPort(): Promise<Server> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return server;
}

const portOf = (server: Server): number => {
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("not listening");
  return address.port;
};

/** A free port: taken, then given back. */
async function freePort(): Promise<number> {
  const server = await heldPort();
  const port = portOf(server);
  server.close();
  await once(server, "close");
  return port;
}

type Mail = { to: string; subject: string; body: string };

/** Straight to the sandbox: a sign-in link, an MFA code and a password-reset link, each e-mailed; their bodies. */
async function sendEveryKindOfMail(sandboxUrl: string): Promise<Mail[]> {
  const post = async (path: string, body: unknown, token?: string) => {
    const response = await fetch(`${sandboxUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    assert.equal(response.status, 200, `${path}: ${response.status}`);
    return (await response.json()) as Record<string, unknown>;
  };
  await post("/sandbox/link-login", { site: "client", username: "alice" });
  const { token } = await post("/auth/client", { shortname: "ACME", username: "alice", password: DEMO_PASSWORD });
  assert.equal(typeof token, "string");
  await post("/web/client/mfa/generate", {}, String(token));
  await post("/web/reset-pwd", { clientShortName: "ACME", emailAddress: "victor@acme.example" });
  const mails = (await (await fetch(`${sandboxUrl}/sandbox/mail.json`)).json()) as Mail[];
  assert.equal(mails.length, 3);
  return mails;
}

/** What in a sandbox mail is a secret: the sign-in link's uuid, the code, the reset link's token. */
function secretsOf(mails: Mail[]): string[] {
  const secrets = mails.flatMap(({ body }) => [
    ...(/uuid=([\w-]+)/.exec(body)?.slice(1) ?? []),
    ...(/verification code is (\d{6})/.exec(body)?.slice(1) ?? []),
    ...(/[?&]token=([\w-]+)/.exec(body)?.slice(1) ?? []),
  ]);
  assert.equal(secrets.length, 3, JSON.stringify(mails));
  return secrets;
}

/** The sandbox's own address, from the start's output (the portal's port excluded). */
const sandboxUrlIn = (output: string, portalPort: number): string | undefined =>
  [...output.matchAll(/http:\/\/127\.0\.0\.1:(\d+)/g)].find(([, port]) => Number(port) !== portalPort)?.[0];

/**
 * The stops below take a tenth of a start's grace and deadlines (a 1 s least grace, the visits sent for 0.7 s), times
 * the suite's factor on a busy machine.
 */
const STOP_SCALE = Math.min(1, 0.1 * TIME_FACTOR);
const timings = stopTimings(STOP_SCALE);

describe("starting the portal (sandbox/launch.ts)", () => {
  const running: Started[] = [];
  after(async () => {
    for (const started of running) await stop(started);
  });

  it("B1: a production start without UPSTREAM_URL stops, naming UPSTREAM_URL and the SANDBOX opt-in", async () => {
    const started = startMain({
      NODE_ENV: "production",
      SESSION_KEY: TEST_SESSION_KEY,
      PORT: String(await freePort()),
    });
    running.push(started);
    assert.equal(await exitWithin(started, 15_000), 1, started.output());
    assert.match(started.output(), /UPSTREAM_URL: required in production/);
    assert.match(started.output(), /SANDBOX=true/);
  });

  describe("a production sandbox (SANDBOX=true)", () => {
    let started: Started;
    let port: number;
    let dbPath: string;
    before(async () => {
      port = await freePort();
      dbPath = join(mkdtempSync(join(tmpdir(), "launch-")), "sandbox.db");
      started = startMain({
        NODE_ENV: "production",
        SANDBOX: "true",
        SESSION_KEY: TEST_SESSION_KEY,
        PORT: String(port),
        SANDBOX_DB: dbPath,
      });
      running.push(started);
      await waitFor(started, (output) => sandboxUrlIn(output, port) !== undefined && output.includes(`:${port}`));
    });
    after(() => rmSync(dirname(dbPath), { recursive: true, force: true }));

    it("hashes its seed accounts' passwords at scrypt's full cost: the tests' cheaper cost never reaches it", () => {
      const db = new (loadSqlite().DatabaseSync)(dbPath, { readOnly: true });
      try {
        const hashes = db.prepare("SELECT password_hash AS hash FROM users").all();
        assert.equal(hashes.length, seedAccounts.length);
        for (const { hash } of hashes) assert.match(String(hash), /^scrypt\$16384\$8\$1\$/);
      } finally {
        db.close();
      }
    });

    it("B15: prints no MFA code, reset link or sign-in link", async () => {
      const sandboxUrl = sandboxUrlIn(started.output(), port);
      assert.ok(sandboxUrl, started.output());
      const secrets = secretsOf(await sendEveryKindOfMail(sandboxUrl));
      await new Promise((resolve) => setTimeout(resolve, 300));
      await stop(started);
      const output = started.output();
      for (const secret of secrets) assert.ok(!output.includes(secret), `printed ${secret}:\n${output}`);
      assert.doesNotMatch(output, new RegExp(DEMO_PASSWORD.replace(/[!-]/g, "\\$&")), "no banner in production");
      for (const line of output.split("\n").filter(Boolean)) assert.doesNotThrow(() => JSON.parse(line), line);
    });
  });

  it("a busy port gives one line naming the port and PORT, and exit code 1", async () => {
    const busy = await heldPort();
    try {
      const port = portOf(busy);
      const started = startMain({ NODE_ENV: "development", PORT: String(port), SESSION_KEY: TEST_SESSION_KEY });
      running.push(started);
      assert.equal(await exitWithin(started, 20_000), 1, started.output());
      const lines = started.output().trim().split("\n");
      assert.equal(lines.at(-1), `Port ${port} is in use; set PORT to another port.`, started.output());
      assert.doesNotMatch(started.output(), /EADDRINUSE|\n\s+at /, "no stack trace");
    } finally {
      busy.close();
    }
  });

  describe("on the sandbox in development", () => {
    let started: Started;
    let port: number;
    before(async () => {
      port = await freePort();
      started = startMain({ NODE_ENV: "development", PORT: String(port), SESSION_KEY: TEST_SESSION_KEY });
      running.push(started);
      await waitFor(started, (output) => output.includes("Ctrl+C") && sandboxUrlIn(output, port) !== undefined);
    });

    it("prints a short banner: the portal's address, a demo account with its password, the mailbox", () => {
      const output = started.output();
      assert.match(output, new RegExp(`Open\\s+http://localhost:${port}\\n`));
      assert.match(output, /Sign in\s+CLIENT tab, company ACME, user alice, password Portal-Demo-2026!/);
      assert.match(output, new RegExp(`Mail\\s+http://localhost:${port}/sandbox/mail\\s`));
    });

    it("B15: the development sandbox announces each mail as a sandbox-only line, without what the mail holds", async () => {
      const sandboxUrl = sandboxUrlIn(started.output(), port);
      assert.ok(sandboxUrl, started.output());
      const secrets = secretsOf(await sendEveryKindOfMail(sandboxUrl));
      const mailLines = (output: string) => output.split("\n").filter((line) => line.includes("sandbox mail"));
      await waitFor(started, (output) => mailLines(output).length >= 3);
      const output = started.output();
      for (const secret of secrets) assert.ok(!output.includes(secret), `printed ${secret}:\n${output}`);
      assert.equal(mailLines(output).length, 3, output);
      for (const line of mailLines(output)) {
        assert.match(line, /"sandboxOnly":true/, line);
        assert.match(line, new RegExp(`read it at http://localhost:${port}/sandbox/mail`), line);
      }
    });
  });

  it("SIGTERM in front of an upstream that never records a visit: one line with the number not sent, exit 0 in time", async () => {
    const sandbox = await startSandbox({ dbPath: ":memory:", portalUrl: "http://127.0.0.1", testPasswordCost: true });
    const upstream = await startFakeUpstream();
    upstream.answer = forwardTo(sandbox.url);
    try {
      const port = await freePort();
      const started = startMain({
        NODE_ENV: "test",
        SESSION_KEY: TEST_SESSION_KEY,
        PORT: String(port),
        UPSTREAM_URL: upstream.url,
        UPSTREAM_TIMEOUT_MS: "60000",
        TEST_STOP_SCALE: String(STOP_SCALE),
      });
      running.push(started);
      await waitFor(started, /Server listening/);
      const alice = await signIn(`http://127.0.0.1:${port}`, accounts.alice, mailboxCode(sandbox.url));
      upstream.faults.track = { kind: "hang" };
      const received = upstream.watched.track.received;
      for (const path of ["/client/home", "/client/inbox", "/client/support"]) {
        assert.equal((await alice.get(path)).status, 200);
      }
      const deadline = Date.now() + scaled(5_000);
      while (upstream.watched.track.received === received && Date.now() < deadline) await delay(20);
      const stopped = performance.now();
      started.child.kill("SIGTERM");
      const grace = shutdownGraceMs(60_000, timings);
      const code = await exitWithin(started, grace + 5_000);
      const took = performance.now() - stopped;
      assert.equal(code, 0, started.output());
      assert.ok(
        took >= timings.visitFlushMs,
        `the visits were sent for their deadline: stopped in ${Math.round(took)} ms`,
      );
      assert.ok(took < grace, `stopped in ${Math.round(took)} ms`);
      const unsent = started
        .output()
        .split("\n")
        .filter((line) => line.includes("not sent"))
        .map((line) => JSON.parse(line).unsent);
      assert.deepEqual(unsent, [3], started.output());
    } finally {
      await upstream.close();
      await sandbox.close();
    }
  });

  it("SIGTERM while a sign-in waits for an upstream that never answers: it is answered after its deadline, exit 0", async () => {
    const sandbox = await startSandbox({ dbPath: ":memory:", portalUrl: "http://127.0.0.1", testPasswordCost: true });
    const upstream = await startFakeUpstream();
    upstream.answer = forwardTo(sandbox.url);
    try {
      const port = await freePort();
      // A deadline longer than the least grace: the stop must wait for it.
      const upstreamTimeoutMs = scaled(1_500);
      assert.ok(upstreamTimeoutMs > timings.leastGraceMs);
      const started = startMain({
        NODE_ENV: "test",
        SESSION_KEY: TEST_SESSION_KEY,
        PORT: String(port),
        UPSTREAM_URL: upstream.url,
        UPSTREAM_TIMEOUT_MS: String(upstreamTimeoutMs),
        TEST_STOP_SCALE: String(STOP_SCALE),
      });
      running.push(started);
      await waitFor(started, /Server listening/);
      const alice = new PortalClient(`http://127.0.0.1:${port}`);
      const { shortname, username } = accounts.alice;
      assert.equal(
        (await alice.post("/api/auth/client", { shortname, username, password: DEMO_PASSWORD })).status,
        200,
      );
      assert.equal((await alice.post("/api/web/client/mfa/generate")).status, 200);
      const code = await mailboxCode(sandbox.url)(accounts.alice);
      // The code passes; the permissions call that completes the sign-in then waits for its whole deadline (a sign-in
      // without them still passes: the pages fetch them again).
      upstream.faults["user-info"] = { kind: "hang" };
      const validating = alice.post(`/api/web/client/mfa/validate/${code}`);
      const deadline = Date.now() + scaled(5_000);
      while (upstream.watched["user-info"].received === 0 && Date.now() < deadline) await delay(20);
      assert.equal(upstream.watched["user-info"].received, 1, "the permissions call is in flight");
      started.child.kill("SIGTERM");
      const stopped = performance.now();
      const answer = await validating;
      assert.deepEqual(answer.json(), [{ text: "Passed" }], answer.text);
      assert.ok(performance.now() - stopped > timings.leastGraceMs, "answered after the least grace, at its deadline");
      assert.equal(await exitWithin(started, shutdownGraceMs(upstreamTimeoutMs, timings) + 5_000), 0, started.output());
    } finally {
      await upstream.close();
      await sandbox.close();
    }
  });
});

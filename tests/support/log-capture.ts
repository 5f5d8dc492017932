// What the log tests share: a stream keeping every JSON line an app writes (and appending it to the run's logs for
// scripts/check-logs.ts), and the portal that logs into it, in front of its sandbox through the fake upstream, which
// notes every token it hands out or is shown.
import { appendFileSync, mkdirSync } from "node:fs";
import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { forwardTo, type RecordedCall, startFakeUpstream } from "#harness/fake-upstream.ts";
import { latestCode } from "#harness/sign-in.ts";
import type { RunningSandbox } from "#sandbox/app.ts";
import type { Config } from "#server/config.ts";
import { startPortalInProcess, TEST_LOGS } from "#tests/support/portal.ts";

export function logCapture(name: string): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const text = chunk.toString("utf8");
      lines.push(...text.split("\n").filter(Boolean));
      mkdirSync(TEST_LOGS, { recursive: true });
      appendFileSync(`${TEST_LOGS}${name}-${process.pid}.log`, text);
      done();
    },
  });
  return { stream, lines };
}

export type LoggedPortal = {
  app: FastifyInstance;
  config: Config;
  sandbox: RunningSandbox;
  /** The latest code mailed to `email`, remembered as a secret. */
  code(email: string): Promise<string>;
  close(): Promise<void>;
};

/**
 * The portal the log tests read: its lines written to `stream`, in front of its sandbox through an upstream double that
 * notes every token it hands out or is shown, so each joins `secrets`. `env` adds to the test configuration (limits,
 * strikes).
 */
export async function startLoggedPortal(
  stream: Writable,
  secrets: Set<string>,
  env: Record<string, string> = {},
  now?: () => number,
): Promise<LoggedPortal> {
  const portal = await startPortalInProcess({
    env,
    listen: false,
    logs: stream,
    ...(now ? { now } : {}),
    inFrontOfSandbox: (sandboxUrl) => startFakeUpstream(forwardTo(sandboxUrl, noteTokens(secrets))),
  });
  return {
    app: portal.app,
    config: portal.config,
    sandbox: portal.sandbox,
    async code(email) {
      const value = await latestCode(portal.sandboxUrl, email);
      secrets.add(value);
      return value;
    },
    close: () => portal.close(),
  };
}

/** Notes the bearer token a call shows and the token its answer hands out. */
function noteTokens(tokens: Set<string>): (call: RecordedCall, answerBody: string) => void {
  return (call, answerBody) => {
    const bearer = /^Bearer (.+)$/.exec(call.headers.authorization ?? "")?.[1];
    if (bearer) tokens.add(bearer);
    const token = /"token":"([^"]+)"/.exec(answerBody)?.[1];
    if (token) tokens.add(token);
  };
}

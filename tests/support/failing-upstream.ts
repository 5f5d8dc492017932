// An upstream failing each way a portal's call can meet it (hung, a 5xx with its internals, HTML, garbage, cut short,
// reset) as answers of the fake upstream, and the checks that the portal answered within a bound, with section 8's
// message and nothing of the upstream's, and went on serving.
import assert from "node:assert/strict";
import { type Answer, happyUpstream, sendJson } from "#harness/fake-upstream.ts";
import { type PortalAnswer, PortalClient } from "#harness/portal-client.ts";
import type { PortalOnFake } from "#tests/support/portal-on-fake.ts";
import { scaled } from "#tests/support/waiting.ts";
import { answerMessage } from "#web/api/answer.ts";

/** The portal's upstream deadline in these tests (`UPSTREAM_TIMEOUT_MS`). */
export const TIMEOUT_MS = scaled(1_000);
/** Generous: a timeout and a margin a loaded two-core machine keeps, both far below a hung request. */
export const BOUND_MS = TIMEOUT_MS + scaled(2_500);
export const stackTrace = /\bat\s+\S+\s+\(|\.(?:ts|js|mjs):\d+|node_modules|Error:\s/;

/** Each way of failing, by name; a hung call is let go when the upstream closes. */
export const failingAnswers: Record<string, Answer> = {
  "hung past the timeout": () => {},
  "a 500 with a stack trace": (_call, response) =>
    sendJson(response, 500, { stack: "Error: boom\n    at handler (/srv/upstream/app.js:10:5)", trace: "x.js:1" }),
  "a 500 error page in HTML": (_call, response) =>
    void response
      .writeHead(500, { "content-type": "text/html" })
      .end("<pre>Error: boom\n at main (/srv/app.js:3:1)</pre>"),
  "a 502 from its gateway": (_call, response) =>
    void response.writeHead(502, { "content-type": "text/html" }).end("<h1>Bad Gateway</h1>"),
  "a 503 with no body": (_call, response) => void response.writeHead(503).end(),
  "a 200 that is not JSON": (_call, response) =>
    void response.writeHead(200, { "content-type": "text/html" }).end("<html>maintenance</html>"),
  "a 200 JSON cut short": (_call, response) =>
    void response.writeHead(200, { "content-type": "application/json" }).end('{"token":"abc","mess'),
  "a body truncated mid-stream": (_call, response) => {
    response.writeHead(200, { "content-type": "application/json", "content-length": "400" });
    response.write('{"token":"abc",');
    setTimeout(() => response.destroy(), 20);
  },
  "a connection reset": (_call, response) => void response.socket?.destroy(),
};

/** What the island shows for the BFF's answer (requirements 8), and that it carries nothing of the upstream's. */
export function assertShown(answer: PortalAnswer, elapsed: number, expected: string, what: string) {
  assert.ok(elapsed < BOUND_MS, `${what}: answered in ${elapsed.toFixed(0)} ms`);
  assert.ok(answer.status >= 400, `${what}: ${answer.status}`);
  assert.doesNotMatch(answer.text, stackTrace, `${what}: no stack trace`);
  assert.doesNotMatch(answer.text, /srv|boom|maintenance|Bad Gateway/, `${what}: nothing of the upstream's body`);
  assert.equal(answerMessage(answer.status, answer.json()), expected, what);
}

export async function timed(run: () => Promise<PortalAnswer>) {
  const started = performance.now();
  const answer = await run();
  return { answer, elapsed: performance.now() - started };
}

/** With the upstream healthy again, the portal serves its pages and a sign-in as before. */
export async function assertStillServing(fake: PortalOnFake) {
  fake.upstream.answer = happyUpstream();
  assert.equal((await new PortalClient(fake.app).get("/healthz")).status, 200);
  assert.equal((await new PortalClient(fake.app).get("/")).status, 200);
  const login = await new PortalClient(fake.app).post("/api/auth/vendor", { username: "vera", password: "pw" });
  assert.deepEqual(login.json(), { message: "Success", tokenHeld: true }, "a healthy upstream is served again");
}

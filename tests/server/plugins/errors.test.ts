// One error handler: clear 4xx answers in requirements 8's shapes, and never internals for a 5xx.
import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, before, describe, it } from "node:test";
import Fastify, { type FastifyInstance } from "fastify";
import { PortalClient } from "#harness/portal-client.ts";
import {
  clientErrors,
  frameworkErrors,
  installErrorHandling,
  invalidRequest,
  problem,
} from "#server/plugins/errors.ts";
import { serverTexts } from "#server/texts.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";
import { answerMessage } from "#web/api/answer.ts";
import { errorTexts } from "#web/texts/errors.ts";

/** A bare app with the portal's handlers: errors raised by routes, by a schema and by the framework. */
async function appWithErrors(logged: string[]): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: "error", stream: { write: (line: string) => logged.push(line) } },
    frameworkErrors,
    bodyLimit: 64,
    ajv: { customOptions: { coerceTypes: false } },
    routerOptions: { maxParamLength: 16 },
  });
  installErrorHandling(app);
  app.post(
    "/schema",
    { schema: { body: { type: "object", required: ["code"], properties: { code: { type: "string" } } } } },
    async () => ({}),
  );
  app.get("/crash", async () => {
    throw new Error("secret internals at /srv/app.js:12");
  });
  app.get("/bad", async () => {
    throw Object.assign(new Error("the value of x is wrong"), { statusCode: 400 });
  });
  app.get("/gone", async () => {
    throw Object.assign(new Error("Gone away"), { statusCode: 410 });
  });
  app.get("/item/:id", async () => ({}));
  await app.ready();
  return app;
}

describe("the portal's error answers", () => {
  it("names the part of the request a schema refused, as an invalid request", async () => {
    const app = await appWithErrors([]);
    const answer = await app.inject({ method: "POST", url: "/schema", payload: { code: 5 } });
    assert.equal(answer.statusCode, 400);
    const body = answer.json() as { code: string; description: string };
    assert.equal(body.code, serverTexts.invalidRequest.code);
    assert.equal(body.description, `${serverTexts.invalidRequest.message}: body/code must be string`);
  });

  it("answers a 5xx with an empty object and logs the error, never the internals to the browser", async () => {
    const logged: string[] = [];
    const app = await appWithErrors(logged);
    const answer = await app.inject({ url: "/crash" });
    assert.equal(answer.statusCode, 500);
    assert.equal(answer.body, "{}");
    assert.ok(logged.some((line) => line.includes("request failed") && line.includes("secret internals")));
  });

  it("gives a 400 the invalid-request shape, other 4xx their message as detail, a 413 its own words", async () => {
    const app = await appWithErrors([]);
    assert.deepEqual((await app.inject({ url: "/bad" })).json(), invalidRequest("the value of x is wrong"));
    const gone = await app.inject({ url: "/gone" });
    assert.equal(gone.statusCode, 410);
    assert.deepEqual(gone.json(), { detail: "Gone away" });
    const large = await app.inject({ method: "POST", url: "/schema", payload: { code: "x".repeat(100) } });
    assert.equal(large.statusCode, 413);
    assert.deepEqual(large.json(), { detail: serverTexts.requestTooLarge.message });
  });

  it("tells an unknown /api endpoint from any other unknown address", async () => {
    const app = await appWithErrors([]);
    const api = await app.inject({ url: "/api/nowhere" });
    assert.equal(api.statusCode, 404);
    assert.deepEqual(api.json(), { detail: errorTexts.endpointNotFound });
    assert.deepEqual((await app.inject({ url: "/nowhere" })).json(), { detail: serverTexts.notFound.message });
  });

  it("answers the framework's own refusals in the same shapes, with security headers and without echoing the URL", async () => {
    const app = await appWithErrors([]);
    const long = await app.inject({ url: `/item/${"x".repeat(40)}` });
    assert.equal(long.statusCode, 414);
    assert.deepEqual(long.json(), { detail: serverTexts.addressTooLong.message });
    assert.ok(long.headers["content-security-policy"], "the security headers are written");
    const malformed = await app.inject({ url: "/item/%E0%A4%A" });
    assert.equal(malformed.statusCode, 400);
    assert.deepEqual(malformed.json(), invalidRequest(serverTexts.addressInvalid.message));
    assert.ok(!malformed.body.includes("%E0"), "the address is not echoed");
  });
});

/** Writes `bytes` to a socket of `port` and reads everything until the server closes it. */
function overSocket(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, "127.0.0.1", () => socket.write(bytes));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("close", () => resolve(Buffer.concat(chunks).toString()));
    socket.on("error", reject);
  });
}

describe("Node's refusals on the socket, before a request exists", () => {
  it("answer in section 8's shape with every answer's security headers, and close", async (t) => {
    const app = Fastify({ clientErrorHandler: clientErrors });
    await app.listen({ host: "127.0.0.1", port: 0 });
    t.after(() => app.close());
    const { port } = app.server.address() as { port: number };
    const cases = [
      ["GARBAGE\r\n\r\n", "400 Bad Request", invalidRequest(serverTexts.requestUnreadable.message)],
      [
        `GET / HTTP/1.1\r\nhost: localhost\r\nx-big: ${"x".repeat(20_000)}\r\n\r\n`,
        "431 Request Header Fields Too Large",
        problem(serverTexts.headersTooLarge.message, serverTexts.headersTooLarge.code),
      ],
    ] as const;
    for (const [sent, status, body] of cases) {
      const answer = await overSocket(port, sent);
      const [head = "", text = ""] = answer.split("\r\n\r\n");
      assert.ok(head.startsWith(`HTTP/1.1 ${status}\r\n`), head);
      assert.match(head, /\r\nx-content-type-options: nosniff\r\n/);
      assert.match(head, /\r\nstrict-transport-security: max-age=31536000; includeSubDomains\r\n/);
      assert.match(head, /\r\ncontent-security-policy: default-src 'none';base-uri 'none';frame-ancestors 'self'\r\n/);
      assert.match(head, /\r\ncache-control: no-store\r\n/);
      assert.deepEqual(JSON.parse(text), body);
    }
  });
});

describe("the portal's own refusal of a request, in the portal", () => {
  let portal: RunningPortal;
  before(async () => {
    portal = await startPortalInProcess({ listen: false });
  });
  after(() => portal.close());

  it("is marked invalid-request, so people read 'Action Failed'", async () => {
    const visitor = new PortalClient(portal.app);
    const empty = await visitor.post("/api/auth/client", { shortname: "ACME", username: "alice", password: "" });
    assert.equal(empty.status, 400);
    assert.equal(empty.json().code, "invalid-request");
    assert.equal(answerMessage(400, empty.json()), "Action Failed");
    // Injected: the client sends every body as JSON, and this one must not be.
    const broken = await portal.app.inject({
      method: "POST",
      url: "/api/auth/client",
      headers: { "content-type": "application/json", "x-portal-request": "1" },
      payload: "{not json",
    });
    assert.equal(broken.statusCode, 400);
    assert.equal(broken.json().code, "invalid-request", "a body that is not JSON too");
  });
});

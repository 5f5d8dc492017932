// server/upstream/client.ts: the server's own typed calls (permissions, tracking, readiness) send what openapi-fetch
// built, follow no redirect, and turn an upstream that is late, too large, not JSON or away into a fault answer.
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { Metrics } from "#server/metrics.ts";
import { bearer, createUpstreamClient, faultOf } from "#server/upstream/client.ts";
import { MAX_JSON_ANSWER_BYTES } from "#server/upstream/read-capped.ts";
import { RefusedTokens } from "#server/upstream/refused-tokens.ts";

const DEADLINE_MS = 500;

type Seen = { method: string; url: string; headers: IncomingMessage["headers"]; body: string };

/** The upstream's answer to each user-info call, chosen by the test; every call it receives is kept. */
let answer: (response: ServerResponse) => void = () => {};
const seen: Seen[] = [];
const upstream = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const { method = "", url = "", headers } = request;
    seen.push({ method, url, headers, body: Buffer.concat(chunks).toString("utf8") });
    answer(response);
  });
});
let baseUrl = "";

const clientOf = (url: string) =>
  createUpstreamClient({
    baseUrl: url,
    timeoutMs: DEADLINE_MS,
    metrics: new Metrics(),
    operationOf: () => "test",
    refused: new RefusedTokens(60_000),
  });
const userInfo = (url = baseUrl) =>
  clientOf(url).GET("/web/{site}/user-info", { params: { path: { site: "client" } }, headers: bearer("token-a") });

before(async () => {
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
after(() => {
  upstream.closeAllConnections();
  upstream.close();
});

describe("the server's own upstream calls", () => {
  it("send the method, path, bearer and JSON body openapi-fetch built, and read the JSON answer", async () => {
    answer = (response) => response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    seen.length = 0;
    const { data, response } = await clientOf(baseUrl).POST("/web/track", {
      body: { page: "/client/home" },
      headers: bearer("token-a"),
    });
    assert.equal(response.status, 200);
    assert.deepEqual(data, { ok: true });
    assert.equal(seen.length, 1);
    assert.equal(seen[0]?.method, "POST");
    assert.equal(seen[0]?.url, "/web/track");
    assert.equal(seen[0]?.headers.authorization, "Bearer token-a");
    assert.deepEqual(JSON.parse(seen[0]?.body ?? ""), { page: "/client/home" });
  });

  it("follow no redirect: the 302 is the answer, and its target is never called", async () => {
    answer = (response) => response.writeHead(302, { location: `${baseUrl}/elsewhere` }).end();
    seen.length = 0;
    const { response } = await userInfo();
    assert.equal(response.status, 302);
    assert.deepEqual(
      seen.map((call) => call.url),
      ["/web/client/user-info"],
    );
  });

  it("end an answer that drips past the deadline as a timeout, when the deadline passes", async () => {
    answer = (response) => {
      response.writeHead(200, { "content-type": "application/json" }).write("{");
      const drip = setInterval(() => response.write(" "), 100);
      response.on("close", () => clearInterval(drip));
    };
    const started = performance.now();
    const { response } = await userInfo();
    assert.equal(faultOf(response), "timeout");
    assert.equal(response.status, 504);
    assert.ok(performance.now() - started < DEADLINE_MS + 400, "cut off at the deadline");
  });

  it("refuse an answer over the cap, declared or not", async () => {
    const large = Buffer.alloc(MAX_JSON_ANSWER_BYTES + 1, 0x20);
    answer = (response) => response.writeHead(200, { "content-type": "application/json" }).end(large);
    assert.equal(faultOf((await userInfo()).response), "too-large");
    answer = (response) => {
      response.writeHead(200, { "content-type": "application/json" }); // chunked: no length declared
      response.write(large.subarray(0, MAX_JSON_ANSWER_BYTES));
      response.end(" ");
    };
    assert.equal(faultOf((await userInfo()).response), "too-large");
  });

  it("take a success that is not JSON as a fault, and pass a refusal's status on", async () => {
    answer = (response) => response.writeHead(200, { "content-type": "text/html" }).end("<html>");
    assert.equal(faultOf((await userInfo()).response), "not-json");
    answer = (response) => response.writeHead(200, { "content-type": "application/json" }).end("{garbage");
    assert.equal(faultOf((await userInfo()).response), "not-json");
    answer = (response) => response.writeHead(403, { "content-type": "application/json" }).end('{"detail":"no"}');
    const { response } = await userInfo();
    assert.equal(response.status, 403);
    assert.equal(faultOf(response), undefined);
  });

  it("answer an upstream that is away as unreachable, at once", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { response } = await userInfo(`http://127.0.0.1:${port}`);
    assert.equal(faultOf(response), "unreachable");
    assert.equal(response.status, 502);
  });
});

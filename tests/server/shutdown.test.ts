// A stop under way: a request that arrives on a connection kept alive gets the portal's own 503, with its headers.
import assert from "node:assert/strict";
import { once } from "node:events";
import { connect } from "node:net";
import { after, before, describe, it } from "node:test";
import { setTimeout as delay } from "node:timers/promises";
import { serverTexts } from "#server/texts.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";

describe("a request that arrives while the portal stops", () => {
  let portal: RunningPortal;
  let port: number;
  before(async () => {
    portal = await startPortalInProcess({ listen: false });
    // A request that is still in flight when the stop begins, so its connection stays open.
    portal.app.get("/slow-for-test", async () => {
      await delay(1_000);
      return { slow: true };
    });
    await portal.app.listen({ host: "127.0.0.1", port: 0 });
    port = (portal.app.server.address() as { port: number }).port;
  });
  after(() => portal.close().catch(() => {}));

  it("gets the portal's 503 shape and security headers, not Fastify's default body", async () => {
    const socket = connect(port, "127.0.0.1");
    await once(socket, "connect");
    let received = "";
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString();
    });
    const request = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`;
    socket.write(request("/slow-for-test"));
    await delay(100);
    const closing = portal.app.close();
    await delay(200); // the stop has begun; the slow request is still in flight
    socket.write(request("/healthz"));
    await once(socket, "close");
    await closing;
    const answers = received.split(/(?=HTTP\/1\.1 )/);
    assert.equal(answers.length, 2, received);
    assert.match(answers[0] ?? "", /^HTTP\/1\.1 200/, "the request in flight finishes");
    const refused = answers[1] ?? "";
    assert.match(refused, /^HTTP\/1\.1 503/);
    assert.match(refused, /\r\ncontent-security-policy: /i);
    assert.match(refused, /\r\nconnection: close/i);
    const body = JSON.parse(refused.slice(refused.indexOf("\r\n\r\n") + 4));
    assert.deepEqual(body, { detail: serverTexts.shuttingDown.message, code: serverTexts.shuttingDown.code });
  });
});

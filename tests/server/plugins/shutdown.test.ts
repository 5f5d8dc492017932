// A stop under way: a request that arrives on an open connection gets the portal's own 503, with its headers; one in
// flight is answered, and its connection closed.
import assert from "node:assert/strict";
import { once } from "node:events";
import { connect } from "node:net";
import { after, before, describe, it } from "node:test";
import { serverTexts } from "#server/texts.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";
import { latch } from "#tests/support/waiting.ts";

describe("a request that arrives while the portal stops", () => {
  let portal: RunningPortal;
  let port: number;
  // The test says when the slow request ends, and learns when it began and when the stop began.
  const slowBegan = latch();
  const slowEnds = latch();
  const stopBegan = latch();
  let connections = 0;
  before(async () => {
    portal = await startPortalInProcess({ listen: false });
    // A request that is still in flight when the stop begins, so its connection stays open.
    portal.app.get("/slow-for-test", async () => {
      slowBegan.open();
      await slowEnds.opened;
      return { slow: true };
    });
    // After the portal's own, which marks the stop as begun.
    portal.app.addHook("preClose", (done) => {
      stopBegan.open();
      done();
    });
    await portal.app.listen({ host: "127.0.0.1", port: 0 });
    portal.app.server.on("connection", () => connections++);
    port = (portal.app.server.address() as { port: number }).port;
  });
  after(() => portal.close().catch(() => {}));

  /** A raw connection and all it has received. */
  async function connection() {
    const socket = connect(port, "127.0.0.1");
    await once(socket, "connect");
    let received = "";
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString();
    });
    return { socket, received: () => received, closed: once(socket, "close") };
  }
  const request = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n`;

  it("gets the portal's 503 shape and security headers; the request in flight is answered and its connection closed", async () => {
    const inFlight = await connection();
    inFlight.socket.write(`${request("/slow-for-test")}\r\n`);
    // A request still being sent when the stop begins (its head not yet ended) keeps its connection open.
    const arriving = await connection();
    arriving.socket.write(request("/healthz"));
    await slowBegan.opened;
    while (connections < 2) await new Promise((resolve) => setImmediate(resolve));
    const closing = portal.app.close();
    await stopBegan.opened;
    arriving.socket.write("\r\n");
    await arriving.closed;
    assert.equal(inFlight.received(), "", "the slow request is still in flight while the other is refused");
    slowEnds.open();
    await inFlight.closed;
    await closing;

    const answered = inFlight.received();
    assert.match(answered, /^HTTP\/1\.1 200/, "the request in flight finishes");
    assert.match(answered, /\r\nconnection: close/i, "and its connection does not outlast the stop");
    const refused = arriving.received();
    assert.match(refused, /^HTTP\/1\.1 503/, refused);
    assert.match(refused, /\r\ncontent-security-policy: /i);
    assert.match(refused, /\r\nconnection: close/i);
    const body = JSON.parse(refused.slice(refused.indexOf("\r\n\r\n") + 4));
    assert.deepEqual(body, { detail: serverTexts.shuttingDown.message, code: serverTexts.shuttingDown.code });
  });
});

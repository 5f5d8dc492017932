// server/plugins/socket-limit.ts: one address holds at most MAX_SOCKETS_PER_ADDRESS open sockets; the next is closed as
// it arrives, and one closed makes room again.
import assert from "node:assert/strict";
import { once } from "node:events";
import { connect, type Socket } from "node:net";
import { describe, it } from "node:test";
import { portalOnFake } from "#tests/support/portal-on-fake.ts";

/** A socket to the portal, open once connected. */
async function opened(port: number): Promise<Socket> {
  const socket = connect(port, "127.0.0.1");
  await once(socket, "connect");
  return socket;
}

/** Whether the server closes `socket` before a request on it is answered; else its status line. */
async function fate(socket: Socket): Promise<string> {
  if (socket.destroyed) return "closed";
  const answered = new Promise<string>((resolve) => {
    let text = "";
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes("\r\n")) resolve(text.slice(0, text.indexOf("\r\n")));
    });
    socket.on("close", () => resolve(text === "" ? "closed" : text));
    socket.on("error", () => resolve("closed"));
  });
  socket.write("GET /healthz HTTP/1.1\r\nhost: localhost\r\n\r\n");
  return answered;
}

describe("open sockets per address", () => {
  it("are bounded: the one past MAX_SOCKETS_PER_ADDRESS is closed unanswered, and a closed one makes room", async (t) => {
    const fake = await portalOnFake(undefined, { listen: true, env: { MAX_SOCKETS_PER_ADDRESS: "2" } });
    const port = Number(new URL(fake.url).port);
    const [first, second] = [await opened(port), await opened(port)];
    const later: Socket[] = [];
    t.after(async () => {
      for (const socket of [first, second, ...later]) socket.destroy();
      await fake.close();
    });
    const third = await opened(port);
    later.push(third);
    assert.equal(await fate(third), "closed", "a third socket from the same address");
    assert.equal(await fate(first), "HTTP/1.1 200 OK");
    first.destroy();
    await once(first, "close");
    // The server counts the socket gone when its own end closes: give it that moment, then a new one is served.
    let answer = "closed";
    for (let tries = 0; tries < 50 && answer === "closed"; tries++) {
      const next = await opened(port);
      later.push(next);
      answer = await fate(next);
    }
    assert.equal(answer, "HTTP/1.1 200 OK");
  });

  it("are not counted behind a proxy, whose sockets carry every client", async (t) => {
    const fake = await portalOnFake(undefined, {
      listen: true,
      env: { MAX_SOCKETS_PER_ADDRESS: "1", TRUST_PROXY: "true", PUBLIC_URL: "https://portal.example" },
    });
    const port = Number(new URL(fake.url).port);
    const sockets = [await opened(port), await opened(port), await opened(port)];
    t.after(async () => {
      for (const socket of sockets) socket.destroy();
      await fake.close();
    });
    for (const socket of sockets) assert.equal(await fate(socket), "HTTP/1.1 200 OK");
  });
});

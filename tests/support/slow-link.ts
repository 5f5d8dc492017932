// A TCP relay that holds each chunk a client sends for a while before passing it on: a replica whose link to Redis is
// slow, so that work it leaves to Redis after answering visibly lands after its answer.
// A raw TCP relay, not the fake upstream: what it carries is Redis's protocol, not the upstream's HTTP.
import { once } from "node:events";
import { createConnection, createServer, type Socket } from "node:net";

export type SlowLink = { url: string; close(): Promise<void> };

/**
 * Relays 127.0.0.1:<port> to `target`, each client-to-target chunk held `delayMs`, in order. `port` 0 takes a free
 * one; a port named again opens the link anew after `close` (a replica cut off from Redis, then back).
 */
export async function slowLink(
  target: { host: string; port: number },
  delayMs: number,
  port = 0,
): Promise<SlowLink & { port: number }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection(target);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on("data", (chunk) => setTimeout(() => upstream.write(chunk), delayMs));
    client.on("end", () => setTimeout(() => upstream.end(), delayMs));
    upstream.pipe(client);
  });
  server.listen(port, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return {
    url: `redis://127.0.0.1:${address.port}`,
    port: address.port,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

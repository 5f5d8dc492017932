// An upstream in front of the sandbox that forwards every call, except that `POST /web/track` can be made to fail,
// stall or be slow: how the tracking tests show that a page never depends on its tracking.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What the upstream does with a track call: pass it on (after a delay), answer a status itself, or never answer. */
export type TrackBehaviour =
  | { kind: "forward"; delayMs?: number }
  | { kind: "status"; status: number }
  | { kind: "hang" }
  | { kind: "drop" };

export type FaultyUpstream = {
  url: string;
  /** Where calls are forwarded: the sandbox. */
  target: string;
  track: TrackBehaviour;
  /** Track calls received, and answered (or given up on), so far. */
  trackCalls: { received: number; answered: number };
  close(): Promise<void>;
};

const hopByHop = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "host",
  "content-encoding",
]);

export async function startFaultyUpstream(): Promise<FaultyUpstream> {
  const open = new Set<ServerResponse>();
  const upstream: FaultyUpstream = {
    url: "",
    target: "",
    track: { kind: "forward" },
    trackCalls: { received: 0, answered: 0 },
    close: async () => {
      for (const response of open) response.destroy();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const isTrack = request.method === "POST" && request.url === "/web/track";
    const behaviour = upstream.track;
    if (isTrack) {
      upstream.trackCalls.received++;
      if (behaviour.kind === "hang") return void open.add(response);
      if (behaviour.kind === "drop") {
        upstream.trackCalls.answered++;
        return void request.socket.destroy();
      }
      if (behaviour.kind === "status") {
        upstream.trackCalls.answered++;
        response.writeHead(behaviour.status, { "content-type": "application/json" }).end('{"detail":"Track failed"}');
        return;
      }
      if (behaviour.delayMs) await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs));
    }
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(
        (entry): entry is [string, string] => typeof entry[1] === "string" && !hopByHop.has(entry[0]),
      ),
    );
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const answer = await fetch(`${upstream.target}${request.url}`, {
      method: request.method ?? "GET",
      headers,
      ...(body ? { body } : {}),
    });
    const answerHeaders = Object.fromEntries([...answer.headers].filter(([name]) => !hopByHop.has(name)));
    response.writeHead(answer.status, answerHeaders).end(Buffer.from(await answer.arrayBuffer()));
    if (isTrack) upstream.trackCalls.answered++;
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.writeHead(502).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return upstream;
}

// An upstream in front of the sandbox that forwards every call, except that the calls the portal makes on its own
// (page tracking, the permissions fetch) can be made to fail, stall or be slow, and are counted.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What the upstream does with a call: pass it on (after a delay), answer a status itself, never answer, hang up. */
export type Behaviour =
  | { kind: "forward"; delayMs?: number }
  | { kind: "status"; status: number }
  | { kind: "hang" }
  | { kind: "drop" };

/** `POST /web/track` and `GET /web/{site}/user-info`. */
export type WatchedCall = "track" | "user-info";

export type FaultyUpstream = {
  url: string;
  /** Where calls are forwarded: the sandbox. */
  target: string;
  behaviours: Record<WatchedCall, Behaviour>;
  /** Watched calls received, and answered (or hung up on), so far. */
  calls: Record<WatchedCall, { received: number; answered: number }>;
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

function watched(request: IncomingMessage): WatchedCall | undefined {
  if (request.method === "POST" && request.url === "/web/track") return "track";
  if (request.method === "GET" && /^\/web\/[^/]+\/user-info$/.test(request.url ?? "")) return "user-info";
  return undefined;
}

export async function startFaultyUpstream(): Promise<FaultyUpstream> {
  const open = new Set<ServerResponse>();
  const upstream: FaultyUpstream = {
    url: "",
    target: "",
    behaviours: { track: { kind: "forward" }, "user-info": { kind: "forward" } },
    calls: { track: { received: 0, answered: 0 }, "user-info": { received: 0, answered: 0 } },
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
    const call = watched(request);
    const behaviour: Behaviour = call ? upstream.behaviours[call] : { kind: "forward" };
    const count = call ? upstream.calls[call] : { received: 0, answered: 0 };
    count.received++;
    if (behaviour.kind === "hang") return void open.add(response);
    if (behaviour.kind === "drop") {
      count.answered++;
      return void request.socket.destroy();
    }
    if (behaviour.kind === "status") {
      count.answered++;
      response.writeHead(behaviour.status, { "content-type": "application/json" }).end('{"detail":"Failed"}');
      return;
    }
    if (behaviour.delayMs) await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs));
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
    count.answered++;
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.writeHead(502).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return upstream;
}

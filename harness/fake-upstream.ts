// The one upstream double of the tests and the benchmarks: it records every call it receives and answers as its script
// decides (a happy upstream in either dialect of harness/upstream-dialect.ts, or forwarding to a sandbox), and the
// calls the portal makes on its own can be given a fault (a status, slowness, no answer, a dropped connection). An
// answer may also be written byte by byte past the HTTP server's framing (`writeRaw`), and `downUpstreamUrl` is an
// upstream that is down. The tests start it in process (tests/support/); the benchmarks run it in a process of its own
// (scripts/bench/upstream.ts).
import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import Fastify, { type FastifyServerOptions } from "fastify";
import { type Dialect, type Refusal, speakerOf } from "#harness/upstream-dialect.ts";
import type { UserInfo } from "#web/site.ts";

/** A JWT-like token of about `length` characters: RS256 header, realistic claims, random group ids, 2048-bit signature. */
export function jwtLikeToken(length: number): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const header = { alg: "RS256", typ: "JWT", kid: randomBytes(16).toString("hex") };
  const resources = ["invoices", "payments", "wires", "reports", "vendors", "batches", "vip", "users", "approvals"];
  const payload = {
    iss: "https://login.payments-provider.example/oauth2/v2.0",
    sub: randomUUID(),
    aud: "payments-portal",
    azp: randomUUID(),
    jti: randomUUID(),
    iat: 1_767_225_600,
    nbf: 1_767_225_600,
    exp: 1_767_229_200,
    name: "Alice Example",
    email: "alice@acme.example",
    company: "ACME",
    scope: `openid profile email ${resources.map((r) => `${r}.read ${r}.write`).join(" ")}`,
    roles: ["Client.Admin", "Client.Payments", "Client.Reports", "Client.Vendors", "Client.Batches"],
    permissions: resources.flatMap((r) => ["read", "create", "update", "approve"].map((a) => `${r}:${a}`)),
    groups: [] as string[],
  };
  const signature = randomBytes(256).toString("base64url");
  for (;;) {
    const token = `${encode(header)}.${encode(payload)}.${signature}`;
    if (token.length >= length) return token;
    payload.groups.push(randomUUID());
  }
}

export type RecordedCall = { method: string; path: string; headers: IncomingHttpHeaders; body: string };
/** How the upstream answers one call; it may also never answer, or break the connection. */
export type Answer = (call: RecordedCall, response: ServerResponse) => void | Promise<void>;

/**
 * What the upstream does to a call instead of answering it as scripted: answer a status itself, answer as scripted
 * but late, never answer, or hang up.
 */
export type Fault =
  | { kind: "status"; status: number }
  | { kind: "slow"; delayMs: number }
  | { kind: "hang" }
  | { kind: "drop" };

/** The calls the portal makes on its own, which a fault can hit: `POST /web/track` and `GET /web/{site}/user-info`. */
export type WatchedCall = "track" | "user-info";

function watchedCall(call: RecordedCall): WatchedCall | undefined {
  if (call.method === "POST" && call.path === "/web/track") return "track";
  if (call.method === "GET" && /^\/web\/[^/]+\/user-info$/.test(call.path)) return "user-info";
  return undefined;
}

export type FakeUpstream = {
  url: string;
  calls: RecordedCall[];
  answer: Answer;
  /** A watched call with a fault here gets the fault instead of its answer, until the entry is deleted. */
  faults: Partial<Record<WatchedCall, Fault>>;
  /** The watched calls received, and answered (or hung up on), so far; kept even when calls are not recorded. */
  watched: Record<WatchedCall, { received: number; answered: number }>;
  /** The calls whose path (without the query) matches. */
  callsTo(path: RegExp): RecordedCall[];
  /** Ends every open connection, answered or not, and goes on listening: the next call comes on a fresh one. */
  dropConnections(): void;
  close(): Promise<void>;
};

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/**
 * The connection a call came on, to answer it byte by byte or end it as a test chooses. `response.socket` will not
 * do: it is null for a call that came after one left unanswered on the same kept-alive connection.
 */
export const connectionOf = (response: ServerResponse): Socket => response.req.socket;

/**
 * Writes `bytes` on the call's connection exactly as given, past the HTTP server's own framing: answers no conforming
 * server sends (a status out of range, lengths that lie, headers by the thousand, a body after a HEAD's head). The
 * call's response object itself is never ended; `dropConnections` or `close` ends its connection.
 */
export function writeRaw(response: ServerResponse, bytes: string | Buffer): void {
  connectionOf(response).write(bytes);
}

/** The address of an upstream that is down: nothing listens on its port, so every connection is refused at once. */
export async function downUpstreamUrl(): Promise<string> {
  const upstream = await startFakeUpstream();
  await upstream.close();
  return upstream.url;
}

export type FakeUpstreamOptions = {
  /** 0 (the default): a free port. */
  port?: number;
  /** 127.0.0.1 (the default). */
  host?: string;
  /** Keep every call in `calls` (the default); a long benchmark load keeps none. */
  record?: boolean;
  /**
   * Served by Fastify with this logging, as the sandbox is, rather than by a bare HTTP server: the benchmarks' upstream
   * then weighs what the sandbox weighs, minus its database.
   */
  logger?: FastifyServerOptions["logger"];
};

export async function startFakeUpstream(
  answer: Answer = happyUpstream(),
  { port = 0, host = "127.0.0.1", record = true, logger }: FakeUpstreamOptions = {},
): Promise<FakeUpstream> {
  const upstream: FakeUpstream = {
    url: "",
    calls: [],
    answer,
    faults: {},
    watched: { track: { received: 0, answered: 0 }, "user-info": { received: 0, answered: 0 } },
    callsTo: (path) => upstream.calls.filter((call) => path.test(call.path.split("?")[0] ?? "")),
    dropConnections: () => {},
    close: async () => {},
  };
  async function receive(call: RecordedCall, response: ServerResponse): Promise<void> {
    if (record) upstream.calls.push(call);
    const watched = watchedCall(call);
    const count = watched ? upstream.watched[watched] : undefined;
    const fault = watched ? upstream.faults[watched] : undefined;
    if (count) count.received++;
    // A hung call stays open until the upstream closes (which ends every connection).
    if (fault?.kind === "hang") return;
    try {
      if (fault?.kind === "drop") response.socket?.destroy();
      else if (fault?.kind === "status") sendJson(response, fault.status, { detail: "Failed" });
      else {
        if (fault?.kind === "slow") await delay(fault.delayMs);
        await upstream.answer(call, response);
      }
    } catch {
      response.destroy();
    }
    if (count) count.answered++;
  }
  if (logger !== undefined) {
    const app = Fastify({ logger });
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body));
    app.all("/*", async (request, reply) => {
      reply.hijack();
      const body = typeof request.body === "string" ? request.body : "";
      await receive({ method: request.method, path: request.url, headers: request.headers, body }, reply.raw);
    });
    upstream.url = (await app.listen({ host, port })).replace("localhost", "127.0.0.1");
    upstream.dropConnections = () => app.server.closeAllConnections();
    upstream.close = () => app.close();
    return upstream;
  }
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    await receive({ method: request.method ?? "", path: request.url ?? "", headers: request.headers, body }, response);
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  upstream.url = `http://${host}:${(server.address() as AddressInfo).port}`;
  upstream.dropConnections = () => server.closeAllConnections();
  upstream.close = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  };
  return upstream;
}

/** Every permission a client can have, with long service lists: the largest realistic permissions answer. */
export const fullPermissions: Omit<UserInfo, "loaded"> = {
  viewOnly: false,
  isAdmin: true,
  clientServices: ["60542", "87286", "88689", ...Array.from({ length: 60 }, (_, i) => String(70_000 + i * 17))],
  beneServices: ["60562", ...Array.from({ length: 30 }, (_, i) => String(61_000 + i * 13))],
  paymentTier: true,
  spotTier: true,
  vipTier: "2",
  userTier: "1",
};

/** The calls a script can refuse with an error answer (requirements 8), worded by its dialect. */
export type ScriptedCall = "login" | "link" | "generate" | "validate" | "reset" | "test" | "change";

export type UpstreamScript = {
  /** The token every login answers, or a function giving each login its own (as a real upstream does). */
  token?: string | (() => string);
  /** The message beside a sign-in's token: requirements 9's, or any other an upstream may send. */
  message?: string;
  verdict?: "Passed" | "Failed";
  permissions?: Omit<UserInfo, "loaded">;
  /** Logins answer no token (a wrong password): what the sign-in throttle counts. */
  refuseLogins?: boolean;
  /** Link sign-ins answer no token (a used or unknown link). */
  refuseLinks?: boolean;
  /** Calls answered with an error instead. */
  refuse?: Partial<Record<ScriptedCall, Refusal>>;
  /** How the answers are worded (harness/upstream-dialect.ts): the description's dialect by default. */
  dialect?: Dialect;
};

/** Which scripted call a request is, by its method and path. */
function scriptedCall(route: string): ScriptedCall | "user-info" | "track" | undefined {
  if (/^POST \/auth\/(client|vendor)$/.test(route)) return "login";
  if (/^POST \/auth\/(client|vendor)-token$/.test(route)) return "link";
  if (/^POST \/web\/(client|vendor)\/mfa\/generate$/.test(route)) return "generate";
  if (/^POST \/web\/(client|vendor)\/mfa\/validate\/[^/]+$/.test(route)) return "validate";
  if (/^GET \/web\/(client|vendor)\/user-info$/.test(route)) return "user-info";
  if (route === "POST /web/reset-pwd") return "reset";
  if (/^POST \/web\/(client|vendor)\/password\/test$/.test(route)) return "test";
  if (/^POST \/web\/(client|vendor)\/password\/change$/.test(route)) return "change";
  if (route === "POST /web/track") return "track";
  return undefined;
}

export const MINIMAL_PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");

/**
 * A working upstream: every operation of openapi/portal.yaml answered as the sandbox would, for one user, in the
 * script's dialect (the description's own by default).
 */
export function happyUpstream(script: UpstreamScript = {}): Answer {
  const { token: issue = "upstream-token-0123456789" } = script;
  const token = () => (typeof issue === "function" ? issue() : issue);
  const speak = speakerOf(script.dialect ?? "description");
  return (call, response) => {
    const path = call.path.split("?")[0] ?? "";
    const route = `${call.method} ${path}`;
    const scripted = scriptedCall(route);
    const refusal =
      scripted && scripted !== "user-info" && scripted !== "track" ? script.refuse?.[scripted] : undefined;
    if (refusal) return speak.refused(response, refusal);
    switch (scripted) {
      case "login":
        return speak.login(response, script.refuseLogins ? undefined : token(), script.message ?? "Success");
      case "link":
        return speak.link(response, script.refuseLinks ? undefined : token());
      case "generate":
        return speak.generated(response);
      case "validate":
        return speak.verdict(response, script.verdict ?? "Passed");
      case "user-info":
        return speak.permissions(response, script.permissions ?? fullPermissions);
      case "reset":
      case "test":
      case "change":
      case "track":
        return speak.accepted(response, scripted);
    }
    if (/^(GET|HEAD) \/pdfs\/[\w.]+\.pdf$/.test(route)) {
      response.writeHead(200, { "content-type": "application/pdf" }).end(MINIMAL_PDF);
      return;
    }
    if (call.method === "POST") return sendJson(response, 200, { ok: true });
    return sendJson(response, 404, { detail: "Not Found" });
  };
}

/** Headers that belong to one connection, not to the call: never passed on. */
const hopByHop = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "host",
  "content-encoding",
]);

/**
 * Every call passed on to `target` (a sandbox) and its answer passed back; `seen` is shown each call with the body of
 * its answer (the log tests note the tokens that go by). A target that cannot be reached answers 502.
 */
export function forwardTo(target: string, seen?: (call: RecordedCall, answerBody: string) => void): Answer {
  return async (call, response) => {
    const headers = Object.fromEntries(
      Object.entries(call.headers).filter(
        (entry): entry is [string, string] => typeof entry[1] === "string" && !hopByHop.has(entry[0]),
      ),
    );
    let answer: Response;
    try {
      answer = await fetch(`${target}${call.path}`, {
        method: call.method,
        headers,
        ...(call.body === "" ? {} : { body: call.body }),
      });
    } catch {
      response.writeHead(502).end();
      return;
    }
    const body = Buffer.from(await answer.arrayBuffer());
    seen?.(call, body.toString("utf8"));
    const answerHeaders = Object.fromEntries([...answer.headers].filter(([name]) => !hopByHop.has(name)));
    response.writeHead(answer.status, answerHeaders).end(body);
  };
}

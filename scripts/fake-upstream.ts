// The scriptable fake upstream: it records every call it receives and answers as its script decides. The tests start
// it in process, one per test file (tests/support/portal-on-fake.ts); the benchmarks run it as their upstream
// (scripts/bench/upstream.ts).
import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { LoginMessage, UserInfo } from "#web/site.ts";

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

export type FakeUpstream = {
  url: string;
  calls: RecordedCall[];
  answer: Answer;
  /** The calls whose path (without the query) matches. */
  callsTo(path: RegExp): RecordedCall[];
  close(): Promise<void>;
};

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

export type FakeUpstreamOptions = {
  /** 0 (the default): a free port. */
  port?: number;
  /** Keep every call in `calls` (the default); a long benchmark load keeps none. */
  record?: boolean;
};

export async function startFakeUpstream(
  answer: Answer = happyUpstream(),
  { port = 0, record = true }: FakeUpstreamOptions = {},
): Promise<FakeUpstream> {
  const upstream: FakeUpstream = {
    url: "",
    calls: [],
    answer,
    callsTo: (path) => upstream.calls.filter((call) => path.test(call.path.split("?")[0] ?? "")),
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const call = {
      method: request.method ?? "",
      path: request.url ?? "",
      headers: request.headers,
      body: Buffer.concat(chunks).toString("utf8"),
    };
    if (record) upstream.calls.push(call);
    try {
      await upstream.answer(call, response);
    } catch {
      response.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
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

export type UpstreamScript = {
  /** The token every login answers, or a function giving each login its own (as a real upstream does). */
  token?: string | (() => string);
  message?: LoginMessage;
  verdict?: "Passed" | "Failed";
  permissions?: Omit<UserInfo, "loaded">;
  /** Logins answer no token (a wrong password): what the sign-in throttle counts. */
  refuseLogins?: boolean;
};

export const MINIMAL_PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");

/** A working upstream: every operation of openapi/portal.yaml answered as the sandbox would, for one user. */
export function happyUpstream(script: UpstreamScript = {}): Answer {
  const { token: issue = "upstream-token-0123456789" } = script;
  const token = () => (typeof issue === "function" ? issue() : issue);
  return (call, response) => {
    const path = call.path.split("?")[0] ?? "";
    const route = `${call.method} ${path}`;
    if (/^POST \/auth\/(client|vendor)$/.test(route))
      return sendJson(
        response,
        200,
        script.refuseLogins ? {} : { token: token(), message: script.message ?? "Success" },
      );
    if (/^POST \/auth\/(client|vendor)-token$/.test(route)) return sendJson(response, 200, { token: token() });
    if (/^POST \/web\/(client|vendor)\/mfa\/validate\/[^/]+$/.test(route))
      return sendJson(response, 200, [{ text: script.verdict ?? "Passed" }]);
    if (/^GET \/web\/(client|vendor)\/user-info$/.test(route))
      return sendJson(response, 200, { loaded: true, ...(script.permissions ?? fullPermissions) });
    if (/^(GET|HEAD) \/pdfs\/[\w.]+\.pdf$/.test(route)) {
      response.writeHead(200, { "content-type": "application/pdf" }).end(MINIMAL_PDF);
      return;
    }
    if (call.method === "POST") return sendJson(response, 200, { ok: true });
    return sendJson(response, 404, { detail: "Not Found" });
  };
}

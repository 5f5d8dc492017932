// server/upstream/client.ts: the server's own typed calls (permissions, tracking, readiness) send what openapi-fetch
// built, follow no redirect, and turn an upstream that is late, too large, not JSON or away into a fault answer.
// And against a hostile upstream: odd statuses, odd headers, lying lengths, encodings it did not ask for, bodies that
// never end or are cut, a HEAD with a body, an aborted caller, a garbage collection mid-call, a 401 with an unreadable
// body and many calls at once. Whatever the upstream sends, a call ends in bounded time with an answer or a fault
// answer, never a throw or a hang; nothing of the upstream's but a status and the body it reads reaches the caller;
// nothing is kept (sockets, timers, listeners) after a call has ended. A 401 reaches the caller as the upstream's 401
// whatever its body, so the caller ends the session (requirements 4.5: server/session/lifecycle.ts, `refusesToken`).
import assert from "node:assert/strict";
import { Socket } from "node:net";
import { after, afterEach, before, describe, it } from "node:test";
import v8 from "node:v8";
import vm from "node:vm";
import { brotliCompressSync, gzipSync } from "node:zlib";
import Fastify from "fastify";
import {
  type Answer,
  connectionOf,
  downUpstreamUrl,
  type FakeUpstream,
  startFakeUpstream,
  writeRaw,
} from "#harness/fake-upstream.ts";
import type { AppContext } from "#server/context.ts";
import { Metrics } from "#server/plugins/metrics.ts";
import { healthRoutes } from "#server/routes/health.ts";
import { refusesToken } from "#server/session/lifecycle.ts";
import { MAX_JSON_ANSWER_BYTES } from "#server/upstream/answer-reader.ts";
import { bearer, createUpstreamClient, faultOf, type UpstreamClient } from "#server/upstream/client.ts";
import { scaled, until } from "#tests/support/waiting.ts";

/** The calls' deadline: it stretches with the suite's factor, or a busy machine's slow reads would meet it first. */
const DEADLINE_MS = scaled(500);
/** The deadline plus time for a slow machine; far below undici's own 300 s header and body timeouts. */
const BOUND_MS = DEADLINE_MS + scaled(400);

/** The upstream; its answer to each call is the test's choice, down to every byte (`writeRaw`). */
let upstream: FakeUpstream;
let port = 0;

const json = (status: number, body: string, extra = "") =>
  `HTTP/1.1 ${status} X\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;
const send =
  (raw: string | Buffer): Answer =>
  (_call, response) =>
    writeRaw(response, raw);

function clientOf({
  timeoutMs = DEADLINE_MS,
  baseUrl = upstream.url,
}: {
  timeoutMs?: number;
  baseUrl?: string;
} = {}): UpstreamClient {
  return createUpstreamClient({ baseUrl, timeoutMs, metrics: new Metrics(), operationOf: () => "test" });
}
/** The caller's reading of an answer: the upstream refused the token (a 401 it sent, never a fault made up for it). */
const refusedToken = (response: Response) => faultOf(response) === undefined && refusesToken(response.status);
const userInfo = (client = clientOf(), token = "token-a", signal?: AbortSignal) =>
  client.GET("/web/{site}/user-info", { params: { path: { site: "client" } }, headers: bearer(token), signal });
const probe = (client = clientOf()) =>
  client.HEAD("/pdfs/{fileName}", { params: { path: { fileName: "BankHolidays.pdf" } } });

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; elapsed: number }> {
  const started = performance.now();
  const value = await run();
  return { value, elapsed: performance.now() - started };
}
/** The call's result, or "hung" when it has not ended within `ms`. */
const within = <T>(ms: number, call: Promise<T>) =>
  Promise.race([call, new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), ms))]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The handles that keep this process alive (ref'd): an idle keep-alive socket in undici's pool is unref'd. */
const activeHandles = () => (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
/** The client's sockets to the upstream that a call still holds (this process holds both ends). */
const clientSockets = () =>
  activeHandles().filter(
    (handle): handle is Socket => handle instanceof Socket && handle.remotePort === port && !handle.destroyed,
  );
/** The process's handles but the upstream's own sockets: timers, the client's sockets. */
const ownHandles = () =>
  activeHandles().filter((handle) => !(handle instanceof Socket && handle.localPort === port)).length;

const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);

// One describe holds the file's hooks: they run for its tests only, even where test files share a process.
describe("the server's upstream client", () => {
  before(async () => {
    upstream = await startFakeUpstream(() => {});
    port = Number(new URL(upstream.url).port);
    process.on("warning", onWarning);
    // One call first, on a generous deadline: the first call loads the client's code, which on a busy machine can take
    // longer than the tests' deadline, and the tests measure calls, not that start.
    upstream.answer = (_call, response) =>
      void response.writeHead(200, { "content-type": "application/json" }).end("{}");
    await clientOf({ timeoutMs: 30_000 }).POST("/web/track", { body: { page: "/" }, headers: bearer("warm-up") });
    upstream.dropConnections();
    upstream.calls.length = 0;
  });
  afterEach(async () => {
    // Each test starts on fresh connections: what one test left on a socket is not the next test's problem (and the
    // client has seen them close, so none is taken from its pool as it closes).
    upstream.dropConnections();
    await sleep(30);
    upstream.calls.length = 0;
  });
  after(async () => {
    process.off("warning", onWarning);
    await upstream.close();
  });

  describe("the server's own upstream calls", () => {
    it("send the method, path, bearer and JSON body openapi-fetch built, and read the JSON answer", async () => {
      upstream.answer = (_call, response) =>
        void response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      upstream.calls.length = 0;
      const { data, response } = await clientOf().POST("/web/track", {
        body: { page: "/client/home" },
        headers: bearer("token-a"),
      });
      assert.equal(response.status, 200);
      assert.deepEqual(data, { ok: true });
      assert.equal(upstream.calls.length, 1);
      assert.equal(upstream.calls[0]?.method, "POST");
      assert.equal(upstream.calls[0]?.path, "/web/track");
      assert.equal(upstream.calls[0]?.headers.authorization, "Bearer token-a");
      assert.deepEqual(JSON.parse(upstream.calls[0]?.body ?? ""), { page: "/client/home" });
    });

    it("follow no redirect: the 302 is a fault, and its target is never called", async () => {
      upstream.answer = (_call, response) =>
        void response.writeHead(302, { location: `${upstream.url}/elsewhere` }).end();
      upstream.calls.length = 0;
      const { response } = await userInfo();
      assert.deepEqual([response.status, faultOf(response)], [502, "redirect"]);
      assert.deepEqual(
        upstream.calls.map((call) => call.path),
        ["/web/client/user-info"],
      );
    });

    it("end an answer that drips past the deadline as a timeout, when the deadline passes", async () => {
      upstream.answer = (_call, response) => {
        response.writeHead(200, { "content-type": "application/json" }).write("{");
        const drip = setInterval(() => response.write(" "), 100);
        response.on("close", () => clearInterval(drip));
      };
      const started = performance.now();
      const { response } = await userInfo();
      assert.equal(faultOf(response), "timeout");
      assert.equal(response.status, 504);
      assert.ok(performance.now() - started < BOUND_MS, "cut off at the deadline");
    });

    it("refuse an answer over the cap, declared or not", async () => {
      const large = Buffer.alloc(MAX_JSON_ANSWER_BYTES + 1, 0x20);
      upstream.answer = (_call, response) =>
        void response.writeHead(200, { "content-type": "application/json" }).end(large);
      assert.equal(faultOf((await userInfo()).response), "too-large");
      upstream.answer = (_call, response) => {
        response.writeHead(200, { "content-type": "application/json" }); // chunked: no length declared
        response.write(large.subarray(0, MAX_JSON_ANSWER_BYTES));
        response.end(" ");
      };
      assert.equal(faultOf((await userInfo()).response), "too-large");
    });

    it("take a success that is not JSON as a fault, and pass a refusal's status on", async () => {
      upstream.answer = (_call, response) =>
        void response.writeHead(200, { "content-type": "text/html" }).end("<html>");
      assert.equal(faultOf((await userInfo()).response), "not-json");
      upstream.answer = (_call, response) =>
        void response.writeHead(200, { "content-type": "application/json" }).end("{garbage");
      assert.equal(faultOf((await userInfo()).response), "not-json");
      upstream.answer = (_call, response) =>
        void response.writeHead(403, { "content-type": "application/json" }).end('{"detail":"no"}');
      const { response } = await userInfo();
      assert.equal(response.status, 403);
      assert.equal(faultOf(response), undefined);
    });

    it("read a success as JSON whatever its Content-Type says, and an empty one as no body", async () => {
      for (const type of ["text/plain", "application/problem+json", undefined]) {
        upstream.answer = (_call, response) =>
          void response.writeHead(200, type ? { "content-type": type } : {}).end('{"isAdmin":true}');
        const { data, response } = await userInfo();
        assert.equal(faultOf(response), undefined, `${type}: no fault`);
        assert.deepEqual(data, { isAdmin: true }, `${type}: parsed`);
      }
      upstream.answer = (_call, response) => void response.writeHead(200, { "content-type": "application/json" }).end();
      const empty = await userInfo();
      assert.equal(faultOf(empty.response), undefined, "an empty success is no fault");
      assert.equal(empty.data, undefined);
    });

    it("answer an upstream that is away as unreachable, at once", async () => {
      const { response } = await userInfo(clientOf({ baseUrl: await downUpstreamUrl() }));
      assert.equal(faultOf(response), "unreachable");
      assert.equal(response.status, 502);
    });
  });

  describe("a hostile upstream: statuses", () => {
    it("a status Response() refuses (600, 999), an unasked 101, a 205 with a body, a lone 100: a fault, never a throw", async () => {
      const cases: Record<string, string> = {
        "600": "HTTP/1.1 600 X\r\ncontent-length: 0\r\n\r\n",
        "999": json(999, '{"isAdmin":true}'),
        "101 unasked": "HTTP/1.1 101 Switching Protocols\r\nupgrade: h2c\r\nconnection: upgrade\r\n\r\n",
        "205 with a body": json(205, '{"isAdmin":true}'),
        "a lone 100": "HTTP/1.1 100 Continue\r\n\r\n",
      };
      for (const [what, raw] of Object.entries(cases)) {
        upstream.answer = send(raw);
        const { value, elapsed } = await timed(() => userInfo());
        assert.ok(faultOf(value.response), `${what}: a fault answer (${value.response.status})`);
        assert.equal(value.response.ok, false, what);
        assert.equal(value.data, undefined, what);
        assert.ok(elapsed < BOUND_MS, `${what}: ${elapsed.toFixed(0)} ms`);
      }
    });

    it("a 103 before the answer is skipped; a 599 is passed on as a refusal, not data", async () => {
      upstream.answer = send(`HTTP/1.1 103 Early Hints\r\nlink: </x>\r\n\r\n${json(200, '{"a":1}')}`);
      const hinted = await userInfo();
      assert.equal(hinted.response.status, 200);
      assert.deepEqual(hinted.data, { a: 1 });
      upstream.answer = send(json(599, '{"detail":"odd"}'));
      const odd = await userInfo();
      assert.equal(odd.response.status, 599);
      assert.equal(faultOf(odd.response), undefined);
      assert.equal(odd.data, undefined);
    });

    it("a 3xx with or without a Location is never followed and never trusted as data", async () => {
      for (const location of [
        `location: ${upstream.url}/web/admin/user-info\r\n`,
        "",
        "location: http://10.255.255.1/\r\n",
      ]) {
        upstream.calls.length = 0;
        upstream.answer = send(json(302, '{"isAdmin":true}', location));
        const { data, response } = await userInfo();
        assert.deepEqual([response.status, faultOf(response)], [502, "redirect"], location);
        assert.equal(response.ok, false);
        assert.equal(data, undefined);
        assert.deepEqual(
          upstream.calls.map((call) => call.path),
          ["/web/client/user-info"],
        );
      }
    });
  });

  describe("a hostile upstream: headers", () => {
    it("headers too large, or too many, are a fault; duplicate lengths are a fault; a duplicate type does not throw", async () => {
      const body = '{"a":1}';
      const cases: Record<string, [string, boolean]> = {
        "one 70 KB header": [json(200, body, `x-a: ${"a".repeat(70_000)}\r\n`), true],
        "3000 headers": [json(200, body, Array.from({ length: 3000 }, (_, i) => `x-${i}: 1\r\n`).join("")), true],
        "two equal lengths": [json(200, body, `content-length: ${body.length}\r\n`), true],
        "two different lengths": [json(200, body, "content-length: 3\r\n"), true],
        "two content types": [json(200, body, "content-type: text/html\r\n"), false],
      };
      for (const [what, [raw, fault]] of Object.entries(cases)) {
        upstream.answer = send(raw);
        const { value, elapsed } = await timed(() => userInfo());
        assert.equal(Boolean(faultOf(value.response)), fault, `${what}: ${value.response.status}`);
        assert.ok(elapsed < BOUND_MS, what);
      }
    });

    it("nothing of the upstream's headers reaches the caller: no set-cookie, no location (type and length are the portal's)", async () => {
      upstream.answer = send(
        json(
          200,
          '{"a":1}',
          "set-cookie: portal-session=evil; Path=/\r\nlocation: /x\r\nx-portal-upstream-fault: \r\n",
        ),
      );
      const { response } = await userInfo();
      assert.deepEqual([...response.headers.keys()], ["content-length", "content-type"]);
      assert.equal(faultOf(response), undefined);
    });
  });

  describe("a hostile upstream: lengths, bodies and connections", () => {
    it("a length shorter than the body: the rest never becomes the next call's answer", async () => {
      const smuggled = json(200, '{"isAdmin":true}');
      upstream.answer = send(
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}${smuggled}`,
      );
      const client = clientOf();
      const first = await userInfo(client, "token-a");
      assert.deepEqual(first.data, {});
      upstream.answer = (_call, response) =>
        void setTimeout(() => writeRaw(response, json(200, '{"isAdmin":false}')), 20);
      const second = await userInfo(client, "token-b");
      assert.deepEqual(second.data, { isAdmin: false });
    });

    it("a length longer than the body: unreachable when the upstream hangs up, a timeout when it holds on", async () => {
      upstream.answer = (_call, response) => {
        writeRaw(response, 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"a"');
        setTimeout(() => connectionOf(response).destroy(), 20);
      };
      const cut = await timed(() => userInfo());
      assert.equal(faultOf(cut.value.response), "unreachable");
      assert.ok(cut.elapsed < BOUND_MS);
      upstream.answer = send('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"a"');
      const held = await timed(() => userInfo());
      assert.equal(faultOf(held.value.response), "timeout");
      assert.ok(held.elapsed < BOUND_MS, `${held.elapsed.toFixed(0)} ms`);
    });

    it("a connection reset mid-body is unreachable, at once", async () => {
      upstream.answer = (_call, response) => {
        writeRaw(
          response,
          'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n4\r\n{"a"\r\n',
        );
        setTimeout(() => connectionOf(response).resetAndDestroy(), 20);
      };
      const { value, elapsed } = await timed(() => userInfo());
      assert.equal(faultOf(value.response), "unreachable");
      assert.ok(elapsed < BOUND_MS);
    });

    it("the deadline holds for no head at all, a late head, and a head on time with a body that never ends", async () => {
      const cases: Record<string, Answer> = {
        "no head": () => {},
        "a head after 300 ms and a body dripping past the deadline": (_call, response) =>
          void setTimeout(() => {
            writeRaw(
              response,
              "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n",
            );
            const drip = setInterval(() => writeRaw(response, "1\r\n \r\n"), 50);
            connectionOf(response).on("close", () => clearInterval(drip));
          }, 300),
        "a head at once and no body ever": send(
          "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n",
        ),
      };
      for (const [what, upstreamDoes] of Object.entries(cases)) {
        upstream.answer = upstreamDoes;
        const { value, elapsed } = await timed(() => userInfo());
        assert.equal(faultOf(value.response), "timeout", what);
        assert.equal(value.response.status, 504, what);
        assert.ok(elapsed >= DEADLINE_MS - 50 && elapsed < BOUND_MS, `${what}: ${elapsed.toFixed(0)} ms`);
      }
    });

    it("the deadline holds when a garbage collection runs while the upstream is silent", async () => {
      v8.setFlagsFromString("--expose-gc");
      const gc = vm.runInNewContext("gc") as () => void;
      const cases: Record<string, Answer> = {
        "waiting for the head": () => {},
        "waiting for the body": send(
          "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 10\r\n\r\n{",
        ),
      };
      const outcomes: string[] = [];
      for (const [what, upstreamDoes] of Object.entries(cases)) {
        upstream.answer = upstreamDoes;
        const collect = setTimeout(gc, 100);
        const result = await within(DEADLINE_MS + scaled(2_500), userInfo());
        clearTimeout(collect);
        outcomes.push(`${what}: ${result === "hung" ? "still waiting 3 s later" : faultOf(result.response)}`);
        upstream.dropConnections(); // a hung call is let go before the next case
        await sleep(20);
      }
      assert.deepEqual(outcomes, ["waiting for the head: timeout", "waiting for the body: timeout"]);
    });

    it("an answer refused on its declared length lets its connection go at once, not when undici gives up", async () => {
      // A long deadline: what is measured is the refusal, not the deadline.
      upstream.answer = send("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 900000000\r\n\r\n{");
      const { value } = await timed(() => userInfo(clientOf({ timeoutMs: 10_000 })));
      assert.equal(faultOf(value.response), "too-large");
      await sleep(300);
      assert.equal(clientSockets().length, 0, "the refused answer's socket is closed");
    });
  });

  describe("a hostile upstream: encodings and bytes", () => {
    it("asks for no encoding (identity), and a gzip or br answer it did not ask for is a fault, never data, and never inflated", async () => {
      const body = '{"isAdmin":true}';
      upstream.answer = send(
        Buffer.concat([
          Buffer.from(
            `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\ncontent-length: ${gzipSync(body).length}\r\n\r\n`,
          ),
          gzipSync(body),
        ]),
      );
      const gzipped = await userInfo();
      assert.equal(upstream.calls[0]?.headers["accept-encoding"], "identity", "no encoding asked for");
      assert.equal(faultOf(gzipped.response), "not-json");
      const br = brotliCompressSync(body);
      upstream.answer = send(
        Buffer.concat([
          Buffer.from(
            `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: br\r\ncontent-length: ${br.length}\r\n\r\n`,
          ),
          br,
        ]),
      );
      assert.equal(faultOf((await userInfo()).response), "not-json");
      // A bomb: 200 KB that would inflate to 200 MB.
      const bomb = gzipSync(Buffer.alloc(200 * 1024 * 1024, 0x20));
      upstream.answer = send(
        Buffer.concat([
          Buffer.from(
            `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\ncontent-length: ${bomb.length}\r\n\r\n`,
          ),
          bomb,
        ]),
      );
      const before = process.memoryUsage().rss;
      const { value, elapsed } = await timed(() => userInfo());
      assert.ok(faultOf(value.response));
      assert.ok(elapsed < BOUND_MS);
      assert.ok(process.memoryUsage().rss - before < 64 * 1024 * 1024, "the bomb was not inflated");
    });

    it("JSON with bytes that are not UTF-8 is read without a throw, and the bytes cannot spell a service code", async () => {
      const raw = Buffer.concat([
        Buffer.from('{"clientServices":["60'),
        Buffer.from([0xff, 0xfe, 0xc3]),
        Buffer.from('42"]}'),
      ]);
      upstream.answer = send(
        Buffer.concat([
          Buffer.from(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${raw.length}\r\n\r\n`),
          raw,
        ]),
      );
      const { data, response } = await userInfo();
      if (faultOf(response)) return; // refusing it is as good
      const services = (data as { clientServices: string[] }).clientServices;
      assert.equal(services.includes("60542"), false);
    });
  });

  describe("a hostile upstream: HEAD and the readiness probe", () => {
    /**
     * /readyz as health.ts serves it, on this upstream, once the probe it started has its answer: /readyz answers
     * within 300 ms of real time with the last probe's result, which a starved machine's probe may not have yet.
     */
    async function readyz(): Promise<{ status: number; upstream: boolean }> {
      const app = Fastify();
      let probed = false;
      const context = {
        upstream: clientOf(),
        stores: { health: async () => ({ backend: "memory" }) },
        config: { sessionKeys: ["key"] },
        upstreamHealth: {
          probed: () => {
            probed = true;
          },
        },
        now: Date.now,
      } as unknown as AppContext;
      await app.register(async (scope) => healthRoutes(scope, context));
      try {
        await app.inject({ method: "GET", url: "/readyz" });
        await until(() => probed, 5_000, "the upstream probe's answer");
        const reply = await app.inject({ method: "GET", url: "/readyz" }); // the probe kept, answered at once
        return { status: reply.statusCode, upstream: reply.json().upstream };
      } finally {
        await app.close();
      }
    }

    it("a HEAD answered with a body: the probe holds, and the body never becomes the next call's answer", async () => {
      const smuggled = json(200, '{"isAdmin":true}');
      upstream.answer = send(
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${smuggled.length}\r\n\r\n${smuggled}`,
      );
      const client = clientOf();
      const head = await probe(client);
      assert.equal(head.response.status, 200);
      assert.equal(faultOf(head.response), undefined);
      upstream.answer = (_call, response) =>
        void setTimeout(() => writeRaw(response, json(200, '{"isAdmin":false}')), 20);
      assert.deepEqual((await userInfo(client)).data, { isAdmin: false });
    });

    it("a HEAD for a PDF over 1 MiB is a healthy upstream: its Content-Length is the file's, not a body's", async () => {
      const size = MAX_JSON_ANSWER_BYTES * 2;
      upstream.answer = send(`HTTP/1.1 200 OK\r\ncontent-type: application/pdf\r\ncontent-length: ${size}\r\n\r\n`);
      const { response } = await probe();
      assert.equal(faultOf(response), undefined, `the probe's answer is a ${response.status}`);
      assert.equal(response.status, 200);
      assert.deepEqual(await readyz(), { status: 200, upstream: true });
    });
  });

  describe("a hostile upstream: callers' signals and refused tokens", () => {
    it("a call whose caller has already given up is a timeout at once, and nothing is sent upstream", async () => {
      upstream.answer = send(json(200, '{"a":1}'));
      const { value, elapsed } = await timed(() => userInfo(clientOf(), "token-a", AbortSignal.abort()));
      assert.equal(faultOf(value.response), "timeout");
      assert.ok(elapsed < scaled(100), `${elapsed.toFixed(0)} ms`);
      await sleep(50);
      assert.equal(upstream.calls.length, 0);
    });

    it("a 401 with a body that is not JSON refuses the token", async () => {
      upstream.answer = send("HTTP/1.1 401 Unauthorized\r\ncontent-type: text/html\r\ncontent-length: 6\r\n\r\n<html>");
      const { response } = await userInfo(clientOf(), "token-401");
      assert.equal(response.status, 401);
      assert.equal(refusedToken(response), true);
    });

    it("a 401 refuses the token whatever its body: one over the cap, or one that never ends (requirements 4.5)", async () => {
      const client = clientOf();
      upstream.answer = send(
        `HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: ${2 * MAX_JSON_ANSWER_BYTES}\r\n\r\n`,
      );
      const large = await userInfo(client, "token-large");
      upstream.answer = send(
        "HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n1\r\n{\r\n",
      );
      const { value: slow, elapsed } = await timed(() => userInfo(client, "token-slow"));
      assert.deepEqual(
        { large: refusedToken(large.response), slow: refusedToken(slow.response) },
        { large: true, slow: true },
      );
      assert.ok(elapsed < BOUND_MS, `the endless body is not waited for: ${elapsed.toFixed(0)} ms`);
    });
  });

  describe("a hostile upstream: many calls at once", () => {
    it("300 calls side by side to an upstream that answers every way end in time, and leave no socket, warning or handle", async () => {
      const handlesBefore = ownHandles();
      warnings.length = 0;
      let n = 0;
      const answers: Answer[] = [
        send(json(200, '{"a":1}')),
        send(json(500, '{"detail":"x"}')),
        send("HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 3\r\n\r\n<p>"),
        (_call, response) => void connectionOf(response).destroy(),
        () => {}, // silent: the deadline
      ];
      const connections = new Set<Socket>();
      upstream.answer = (call, response) => {
        connections.add(connectionOf(response));
        return answers[n++ % answers.length]?.(call, response);
      };
      const client = clientOf();
      const { value, elapsed } = await timed(() =>
        Promise.all(Array.from({ length: 300 }, (_, i) => within(BOUND_MS + 2_000, userInfo(client, `token-${i}`)))),
      );
      assert.equal(value.filter((result) => result === "hung").length, 0, "calls still waiting 2 s past the deadline");
      assert.ok(elapsed < BOUND_MS + 1_000, `${elapsed.toFixed(0)} ms`);
      assert.deepEqual(
        warnings.filter((warning) => /MaxListeners|leak/i.test(`${warning.name} ${warning.message}`)),
        [],
      );
      // The upstream closes what it holds (a keep-alive connection is the upstream's to end); the client holds nothing.
      for (const connection of connections) connection.end();
      // A busy machine closes them later, not never: waited for, within a scaled bound.
      await until(() => clientSockets().length === 0, 2_000, "no socket left open");
      await until(() => ownHandles() <= handlesBefore + 1, 2_000, `handles back to ${handlesBefore} (+1)`);
    });
  });
});

// Traces: with an OTLP endpoint set, a request's span and the upstream call it makes share one trace id, the upstream
// receives that trace's traceparent, each log line of the request names the trace, and no span holds a secret.
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import type { RecordedCall } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, DEMO_PASSWORD, signIn } from "#harness/sign-in.ts";
import { startTracing, type Tracing } from "#server/plugins/tracing.ts";
import { logCapture } from "#tests/support/log-capture.ts";
import { type PortalOnFake, portalOnFake } from "#tests/support/portal-on-fake.ts";
import { sectionPaths } from "#tests/support/route-paths.ts";
import { until } from "#tests/support/waiting.ts";

/** A span as OTLP's JSON encoding carries it (the fields read here). */
type ExportedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
};
type Export = { resourceSpans: { scopeSpans: { spans: ExportedSpan[] }[] }[] };

const SERVER = 2;
const CLIENT = 3;
const MFA_CODE = "918273";
const LINK_UUID = "c0ffee00-link-uuid-7e57";
const TOKEN = "upstream-token-0123456789";
const BROKEN_BODY_PASSWORD = "Half-Sent-Password-77";

/** A collector's OTLP/HTTP receiver: every export posted to /v1/traces, as JSON. */
const exports: Export[] = [];
let collector: Server;
let tracing: Tracing;
let fake: PortalOnFake;
let client: PortalClient;
/** The page view's trace, whose log lines the third test reads. */
let pageViewTrace: string | undefined;
/** The portal's log lines (also in the run's logs). */
const logs = logCapture("tracing");

const spans = () => exports.flatMap((body) => body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
const attribute = (span: ExportedSpan, key: string) => {
  const value = span.attributes.find((entry) => entry.key === key)?.value;
  return value?.stringValue ?? value?.intValue;
};
/** The traceparent a call carried: version, trace id, parent span id, flags. */
const traceparentOf = (call: RecordedCall) => {
  const [, traceId, spanId] = String(call.headers.traceparent ?? "").split("-");
  return { traceId, spanId };
};

// One describe holds the file's hooks: they run for its tests only, even where test files share a process.
describe("with an OTLP endpoint set", () => {
  before(async () => {
    collector = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        if (request.url === "/v1/traces" && request.headers["content-type"] === "application/json")
          exports.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as Export);
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
    const { port } = collector.address() as AddressInfo;
    tracing = startTracing({ endpoint: `http://127.0.0.1:${port}/`, serviceName: "portal-under-test" });
    fake = await portalOnFake(undefined, { listen: true, logs: logs.stream });
  });

  after(async () => {
    await fake.close();
    await tracing.shutdown();
    await new Promise((resolve) => collector.close(resolve));
  });

  /** Flushes the spans ended so far until `done` holds: a span is exported as it ends, maybe after the answer. */
  const flushUntil = (done: () => boolean, what: string) =>
    until(
      async () => {
        await tracing.flush();
        return done();
      },
      5_000,
      what,
    );

  /** The call's server span, the upstream's client span under it, and the call the upstream received. */
  async function traced(send: () => Promise<unknown>, upstreamPath: RegExp) {
    fake.upstream.calls.length = 0;
    await send();
    // A visit leaves after the answer, in the background.
    await until(() => fake.upstream.callsTo(upstreamPath).length > 0, 5_000, `the upstream's ${upstreamPath}`);
    const [call] = fake.upstream.callsTo(upstreamPath);
    assert.ok(call, `the upstream received ${upstreamPath}`);
    const { traceId, spanId } = traceparentOf(call);
    assert.match(String(call.headers.traceparent), /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/, "a W3C traceparent, sampled");
    // The upstream has the call before the portal has its answer: the client span (and a background call's request
    // span) ends later, so the spans are flushed until both are out, however slow the machine.
    const ended = () =>
      spans().some((span) => span.spanId === spanId) &&
      spans().some((span) => span.traceId === traceId && span.kind === SERVER);
    await flushUntil(ended, "the call's spans");
    const upstreamSpan = spans().find((span) => span.spanId === spanId);
    assert.ok(upstreamSpan, "the traceparent names an exported span");
    assert.equal(upstreamSpan.kind, CLIENT);
    assert.equal(upstreamSpan.traceId, traceId);
    const inTrace = spans().filter((span) => span.traceId === traceId);
    const server = inTrace.find((span) => span.kind === SERVER && span.name === "request");
    assert.ok(server, `the portal's request span is in the trace: ${inTrace.map((span) => span.name).join(", ")}`);
    return { traceId, server, upstreamSpan, call };
  }

  describe("tracing", () => {
    it("puts an /api call and its upstream calls under one trace, the code hidden from the URL attributes", async () => {
      client = new PortalClient(fake.url);
      await client.post("/api/auth/client", { shortname: "ACME", username: "alice", password: DEMO_PASSWORD });
      await client.post("/api/web/client/mfa/generate");
      const { traceId, server, upstreamSpan, call } = await traced(async () => {
        const verdict = await client.post(`/api/web/client/mfa/validate/${MFA_CODE}`);
        assert.deepEqual(verdict.json(), [{ text: "Passed" }]);
      }, /\/mfa\/validate\//);
      assert.equal(call.path, `/web/client/mfa/validate/${MFA_CODE}`, "the upstream gets the code itself");
      assert.equal(attribute(server, "http.route"), "/api/web/:site/mfa/validate/:code");
      assert.equal(attribute(server, "url.path"), "/api/web/client/mfa/validate/***");
      assert.equal(attribute(upstreamSpan, "url.path"), "/web/client/mfa/validate/***");
      assert.match(
        String(attribute(upstreamSpan, "url.full")),
        /^http:\/\/127\.0\.0\.1:\d+\/web\/client\/mfa\/validate\/\*\*\*$/,
      );
      // The permissions the sign-in reads, by the server's own client, in the same trace.
      const [permissions] = fake.upstream.callsTo(/\/web\/client\/user-info$/);
      assert.ok(permissions, "the sign-in read the permissions");
      assert.equal(traceparentOf(permissions).traceId, traceId);
    });

    it("puts a page view and its visit under one trace", async () => {
      const { traceId, server, upstreamSpan } = await traced(async () => {
        assert.equal((await client.get("/client/home")).status, 200);
      }, /\/web\/track$/);
      pageViewTrace = traceId;
      assert.equal(attribute(server, "url.path"), "/client/home");
      assert.equal(attribute(upstreamSpan, "url.path"), "/web/track");
    });

    it("puts a document and its upstream call under one trace", async () => {
      const { server, upstreamSpan } = await traced(async () => {
        assert.equal((await client.get("/pdfs/BankHolidays.pdf")).status, 200);
      }, /\/pdfs\/BankHolidays\.pdf$/);
      assert.equal(attribute(server, "url.path"), "/pdfs/BankHolidays.pdf");
      assert.equal(attribute(upstreamSpan, "url.path"), "/pdfs/BankHolidays.pdf");
    });

    it("writes the trace id on each log line of a traced request", async () => {
      const lines = logs.lines.map((line) => JSON.parse(line) as { reqId?: string; trace_id?: string; msg?: string });
      const requestLines = lines.filter((line) => line.reqId !== undefined);
      assert.ok(requestLines.length > 0, "the requests logged");
      assert.deepEqual(
        requestLines.filter((line) => !line.trace_id).map((line) => line.msg),
        [],
        "every request line names its trace",
      );
      assert.ok(
        requestLines.some((line) => line.trace_id === pageViewTrace && line.msg === "request completed"),
        "the page view's line names the page view's trace",
      );
    });

    it("exports no token, password, code, cookie or link id", async () => {
      await client.copy().post(`/api/auth/client-token?uuid=${LINK_UUID}`);
      // A body that is not JSON: a parser's error message may quote it, and an error is recorded on the span.
      const broken = await new PortalClient(fake.url).raw(
        "POST",
        "/api/auth/client",
        { "content-type": "application/json", "x-portal-request": "1" },
        `{"shortname":"ACME","username":"alice","password":"${BROKEN_BODY_PASSWORD}"`,
      );
      assert.equal(broken.status, 400);
      await tracing.flush();
      const cookie = client.cookieHeader.split("=").slice(1).join("=");
      assert.ok(cookie.length > 20, "the session has a cookie");
      const everything = JSON.stringify(spans().map(({ name, attributes }) => ({ name, attributes })));
      assert.ok(everything.includes("/api/auth/client-token"), "the link sign-in was traced");
      for (const [what, secret] of Object.entries({
        token: TOKEN,
        password: DEMO_PASSWORD,
        code: MFA_CODE,
        cookie,
        "cookie (decoded)": decodeURIComponent(cookie),
        "link id": LINK_UUID,
        "password in a broken body": BROKEN_BODY_PASSWORD,
      }))
        assert.ok(!everything.includes(secret), `no ${what} in any span`);
    });
  });

  describe("tracing page views side by side", () => {
    it("sends each visit under its own page view's trace", async () => {
      const pages = sectionPaths.filter((path) => path.startsWith("/client/")).slice(0, 4);
      assert.equal(pages.length, 4);
      const clients = await Promise.all(
        pages.map(() => signIn(new PortalClient(fake.url), accounts.alice, async () => MFA_CODE)),
      );
      fake.upstream.calls.length = 0;
      const answers = await Promise.all(pages.map((page, index) => clients[index]?.get(page)));
      assert.deepEqual(
        answers.map((answer) => answer?.status),
        pages.map(() => 200),
      );
      await until(() => fake.upstream.callsTo(/\/web\/track$/).length >= pages.length, 5_000, "every page's visit");
      const pageSpans = () =>
        spans().filter((span) => span.kind === SERVER && pages.includes(String(attribute(span, "url.path"))));
      await flushUntil(() => pageSpans().length >= pages.length, "every page's span");
      const traceOfPage = new Map(pageSpans().map((span) => [String(attribute(span, "url.path")), span.traceId]));
      const visits = fake.upstream.callsTo(/\/web\/track$/);
      assert.equal(visits.length, pages.length);
      for (const visit of visits) {
        const { page } = JSON.parse(visit.body) as { page: string };
        assert.equal(traceparentOf(visit).traceId, traceOfPage.get(page), `the visit of ${page} is in its trace`);
      }
    });
  });
});

describe("once tracing stops", () => {
  it("traces no app built after it: its upstream calls carry no traceparent, its log lines no trace", async () => {
    const untracedLogs = logCapture("tracing");
    const untraced = await portalOnFake(undefined, { listen: true, logs: untracedLogs.stream });
    try {
      const visitor = new PortalClient(untraced.url);
      await visitor.post("/api/auth/client", { shortname: "ACME", username: "alice", password: DEMO_PASSWORD });
      const [call] = untraced.upstream.callsTo(/^\/auth\/client$/);
      assert.ok(call, "the upstream received the sign-in");
      assert.equal(call.headers.traceparent, undefined);
    } finally {
      await untraced.close();
    }
    const lines = untracedLogs.lines;
    assert.ok(lines.length > 0, "the portal logged");
    assert.ok(
      lines.every((line) => !line.includes('"trace_id"')),
      "no line names a trace",
    );
  });
});

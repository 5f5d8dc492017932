// server/upstream/answer-reader.ts: the one reader of upstream answers. A body is parsed only where the portal reads
// it, behind a byte-order mark or not, and only in the encoding the portal asked for; a status that decides its own
// text, and a 401, are never read; a redirect or a status out of range is a fault. Every answer is read within one
// deadline for the whole call and a cap on its size, whoever reads it (an /api call, a document, the server's own
// calls): SECURITY.md's breaks B7 and B8.
import assert from "node:assert/strict";
import { once } from "node:events";
import { Readable } from "node:stream";
import { describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { type Answer, happyUpstream } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import {
  ACCEPT_ENCODING,
  parseJson,
  plainEncoding,
  readAnswer,
  UpstreamFault,
} from "#server/upstream/answer-reader.ts";
import { BOUND_MS, timed } from "#tests/support/failing-upstream.ts";
import { portalOnFake } from "#tests/support/portal-on-fake.ts";
import { scaled } from "#tests/support/waiting.ts";
import { answerMessage } from "#web/api/answer.ts";
import { errorTexts } from "#web/texts/errors.ts";

const isFault = (fault: string) => (error: unknown) => error instanceof UpstreamFault && error.fault === fault;
const BOM = "\uFEFF";

/** A body that never ends, and says whether anyone read it. */
function endless() {
  const seen = { read: false };
  const body = new Readable({
    read() {
      seen.read = true;
    },
  });
  return { body, seen };
}

const never = new AbortController().signal;

describe("a body, parsed as requirements 7.1 reads it", () => {
  it("parses a non-empty answer as JSON, whatever its label said", () => {
    assert.deepEqual(parseJson(Buffer.from('[{"text":"Passed"}]')), [{ text: "Passed" }]);
    assert.deepEqual(parseJson(Buffer.from(' {"token":"t"}\n')), { token: "t" });
  });

  it("F7: drops a UTF-8 byte-order mark before the JSON", () => {
    assert.deepEqual(parseJson(Buffer.from(`${BOM}{"detail":"Password was used recently."}`)), {
      detail: "Password was used recently.",
    });
    assert.deepEqual(parseJson(Buffer.from(`${BOM}[{"text":"Passed"}]`)), [{ text: "Passed" }]);
  });

  it("takes an empty answer, or one of white space only, as no body, never a fault", () => {
    for (const text of ["", "\r\n", `${BOM}`, "  \n"]) assert.equal(parseJson(Buffer.from(text)), undefined);
  });

  it("takes a non-empty answer that is not JSON as a fault", () => {
    for (const text of ["<html>maintenance</html>", "Passed", '{"token":"abc","mess'])
      assert.throws(() => parseJson(Buffer.from(text)), isFault("not-json"), text);
  });

  it("F9: reads a body in the encoding it asked for (identity) only: one compressed anyway is never inflated", async () => {
    assert.equal(ACCEPT_ENCODING, "identity");
    assert.deepEqual([plainEncoding(undefined), plainEncoding("identity"), plainEncoding("gzip")], [true, true, false]);
    const gzipped = Readable.from([gzipSync('{"token":"t"}')]);
    const headers = { "content-encoding": "gzip" };
    await assert.rejects(readAnswer({ status: 200, headers }, gzipped, "body", never), isFault("not-json"));
  });
});

describe("what of an answer is read", () => {
  it("F1: a success whose status alone is read (tests/server/upstream/operations.test.ts names them) is never read", async () => {
    const { body, seen } = endless();
    const read = await readAnswer({ status: 200, headers: {} }, body, "status", never);
    assert.equal(read, undefined);
    assert.equal(seen.read, false, "the body was not touched");
  });

  it("F8: a 401, 403, 404 or 500 is decided by its status: its body is never read, whatever its size or speed", async () => {
    for (const status of [401, 403, 404, 500]) {
      const { body, seen } = endless();
      const headers = { "content-length": String(50 * 1024 * 1024) };
      assert.equal(await readAnswer({ status, headers }, body, "body", never), undefined, `${status}`);
      assert.equal(seen.read, false, `${status}: not read`);
    }
  });

  it("F8: another failed answer's body too large or too late has no detail, and is no fault", async () => {
    const large = Readable.from([Buffer.alloc(2 * 1024 * 1024, 0x20)]);
    assert.equal(await readAnswer({ status: 400, headers: {} }, large, "body", never), undefined);
    const late = endless().body;
    assert.equal(await readAnswer({ status: 503, headers: {} }, late, "body", AbortSignal.abort()), undefined);
    const garbage = Readable.from([Buffer.from("<h1>Bad Gateway</h1>")]);
    assert.equal(await readAnswer({ status: 502, headers: {} }, garbage, "body", never), undefined);
  });

  it("F9: a redirect, and a status out of HTTP's range, are faults", async () => {
    await assert.rejects(readAnswer({ status: 302, headers: {} }, null, "status", never), isFault("redirect"));
    await assert.rejects(readAnswer({ status: 600, headers: {} }, null, "body", never), isFault("bad-status"));
  });
});

const happy = happyUpstream();

describe("a whole-call deadline and a cap on the answer's size (SECURITY.md's breaks B7 and B8)", () => {
  it("B7: an upstream that drips one byte every 2 s is cut off at the whole-call deadline", async () => {
    const deadline = scaled(2_500);
    /** An answer whose head comes at once, then one byte every 2 s: no single wait is longer than the deadline. */
    const drip: Answer = (call, response) => {
      if (call.path.startsWith("/web/client/user-info")) return happy(call, response);
      response.writeHead(200, { "content-type": call.path.endsWith(".pdf") ? "application/pdf" : "application/json" });
      response.write(" ");
      let bytes = 1;
      const timer = setInterval(() => {
        bytes += 1;
        if (bytes < 10) response.write(" ");
        else {
          clearInterval(timer);
          response.end(call.path.endsWith(".pdf") ? "" : "{}");
        }
      }, scaled(2_000));
      response.on("close", () => clearInterval(timer));
    };
    const slow = await portalOnFake(happy, { env: { UPSTREAM_TIMEOUT_MS: String(deadline) } });
    try {
      const visitor = await signIn(slow.app, accounts.alice, slow.code);
      slow.upstream.answer = drip;
      const call = await timed(() =>
        visitor.post("/api/web/client/password/test", { userId: "alice", password: "pw" }),
      );
      assert.ok(call.elapsed < deadline + scaled(1_200), `the API call answered after ${call.elapsed.toFixed(0)} ms`);
      assert.equal(answerMessage(call.answer.status, call.answer.json()), errorTexts.actionFailed);
      const pdf = await timed(() => visitor.get("/pdfs/BankHolidays.pdf"));
      assert.ok(pdf.elapsed < deadline + scaled(1_200), `the document answered after ${pdf.elapsed.toFixed(0)} ms`);
      assert.ok(pdf.answer.status >= 500, `the document: ${pdf.answer.status}`);
    } finally {
      await slow.close();
    }
  });

  it("B8: an upstream answer over 1 MiB is a fault: read no further than the cap, no token held, and the portal keeps serving", async () => {
    const total = 64 * 1024 * 1024;
    let sent = 0;
    /** A valid JSON login answer of 64 MiB: a token, then padding. */
    const huge: Answer = async (_call, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"token":"upstream-token-0123456789","message":"Success","padding":"');
      const chunk = Buffer.alloc(64 * 1024, "a");
      for (sent = 0; sent < total && !response.destroyed; sent += chunk.length)
        if (!response.write(chunk)) await Promise.race([once(response, "drain"), once(response, "close")]);
      response.end('"}');
    };
    const big = await portalOnFake(huge);
    try {
      const visitor = new PortalClient(big.app);
      const { answer, elapsed } = await timed(() =>
        visitor.post("/api/auth/client", { shortname: "ACME", username: "alice", password: "pw" }),
      );
      assert.ok(answer.status >= 500, `a fault: ${answer.status} ${answer.text.slice(0, 80)}`);
      assert.equal(answerMessage(answer.status, answer.json()), errorTexts.actionFailed);
      assert.ok(sent < total, `the portal stopped reading: ${sent} of ${total} bytes were sent`);
      assert.ok(elapsed < BOUND_MS, `answered in ${elapsed.toFixed(0)} ms`);
      assert.equal((await visitor.get("/mfa")).headers.location, "/", "no token is held");
      assert.equal((await new PortalClient(big.app).get("/healthz")).status, 200);
    } finally {
      await big.close();
    }
  });
});

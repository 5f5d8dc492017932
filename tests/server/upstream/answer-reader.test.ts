// server/upstream/answer-reader.ts: the one reader of upstream answers. A body is parsed only where the portal reads
// it, behind a byte-order mark or not, and only in the encoding the portal asked for; a status that decides its own text, and a 401, are
// never read; a redirect or a status out of range is a fault.
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { ACCEPT_ENCODING, parseJson, plainEncoding, readAnswer } from "#server/upstream/answer-reader.ts";
import { UpstreamFault } from "#server/upstream/read-capped.ts";

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

// server/upstream/upstream-call.ts: the request openapi-fetch builds for each of the server's calls keeps what it is
// given as it is, and the transport reads back that same call.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CallRequest, callOf } from "#server/upstream/upstream-call.ts";

describe("an upstream call", () => {
  it("keeps the URL, method, headers, JSON text and signal it is given: nothing parsed, copied or wrapped", async () => {
    const headers = new Headers({ authorization: "Bearer t", "content-type": "application/json" });
    const signal = new AbortController().signal;
    const url = "http://up.example/web/track?x=%20";
    const request = new CallRequest(url, { method: "POST", headers, body: '{"page":"/"}', signal });
    const call = await callOf(request);
    assert.equal(call, request, "the transport reads the object openapi-fetch built");
    assert.equal(call.url, url);
    assert.equal(call.method, "POST");
    assert.equal(call.headers, headers);
    assert.equal(call.body, '{"page":"/"}');
    assert.equal(call.signal, signal);
  });

  it("is a GET without a body, headers or signal when given none", async () => {
    const call = await callOf(new CallRequest("http://up.example/healthz"));
    assert.equal(call.method, "GET");
    assert.deepEqual([...call.headers], []);
    assert.equal(call.body, undefined);
    assert.equal(call.signal, undefined);
  });

  it("takes headers as a record too, and refuses a body that is not JSON text", () => {
    const call = new CallRequest("http://up.example/", { headers: { accept: "application/json" } });
    assert.equal(call.headers.get("accept"), "application/json");
    assert.throws(() => new CallRequest("http://up.example/", { method: "POST", body: new Uint8Array(1) }), TypeError);
  });

  it("is not read from a request the typed client did not build", () => {
    assert.throws(() => callOf(new Request("http://up.example/")), TypeError);
  });
});

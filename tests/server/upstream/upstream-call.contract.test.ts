// What server/upstream/upstream-call.ts relies on in openapi-fetch, pinned: a release that builds its request another
// way, or reads more of it than its method, fails here before a call goes out without its body or headers.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import createClient from "openapi-fetch";
import type { paths } from "#openapi/schema.ts";
import { CallRequest } from "#server/upstream/upstream-call.ts";

type Built = { url: unknown; init: Record<string, unknown> };

/**
 * A client whose every request is an upstream call that records how openapi-fetch built it and what openapi-fetch
 * read of it; its fetch and middleware read nothing, so every read is openapi-fetch's.
 */
function recordingClient() {
  const built: Built[] = [];
  const touched: string[] = [];
  const seen: { onRequest?: unknown; fetch?: unknown; onResponse?: unknown } = {};
  const watched: ProxyHandler<object> = {
    get: (target, key, receiver) => {
      touched.push(`read ${String(key)}`);
      return Reflect.get(target, key, receiver);
    },
    has: (target, key) => {
      touched.push(`in ${String(key)}`);
      return Reflect.has(target, key);
    },
    set: (target, key, value) => {
      touched.push(`write ${String(key)}`);
      return Reflect.set(target, key, value);
    },
  };
  const Recorded = new Proxy(CallRequest, {
    construct: (target, args: [string, RequestInit?]) => {
      const [url, init] = args;
      built.push({ url, init: { ...init } });
      return new Proxy(Reflect.construct(target, args), watched);
    },
  });
  const client = createClient<paths>({
    baseUrl: "http://up.example/",
    Request: Recorded,
    fetch: async (request) => {
      seen.fetch = request;
      return new Response('{"ok":true}', { headers: { "content-type": "application/json", "content-length": "11" } });
    },
  });
  client.use({
    onRequest: ({ request }) => {
      seen.onRequest = request;
    },
    onResponse: ({ request }) => {
      seen.onResponse = request;
    },
  });
  return { client, built, touched, seen };
}

describe("openapi-fetch, as the upstream call relies on it", () => {
  it("builds each call with new Request(url, init) of the class it is given: the whole URL, and in init the method in capitals, the headers as a Headers, the JSON body as text and the caller's signal", async () => {
    const { client, built } = recordingClient();
    const signal = new AbortController().signal;
    await client.POST("/web/track", { body: { page: "/client/home" }, headers: { authorization: "Bearer t" }, signal });
    await client.HEAD("/pdfs/{fileName}", { params: { path: { fileName: "BankHolidays.pdf" } } });
    const [post, head] = built as [Built, Built];
    assert.equal(post.url, "http://up.example/web/track");
    assert.deepEqual(Object.keys(post.init).sort(), ["body", "headers", "method", "redirect", "signal"]);
    assert.equal(post.init.method, "POST");
    assert.equal(post.init.body, '{"page":"/client/home"}');
    assert.equal(post.init.signal, signal);
    assert.ok(post.init.headers instanceof Headers);
    assert.deepEqual(
      [...post.init.headers],
      [
        ["authorization", "Bearer t"],
        ["content-type", "application/json"],
      ],
    );
    assert.equal(head.url, "http://up.example/pdfs/BankHolidays.pdf");
    assert.equal(head.init.method, "HEAD");
    assert.equal(head.init.body, undefined);
    assert.ok(head.init.headers instanceof Headers);
    assert.deepEqual([...head.init.headers], [], "no Content-Type without a body");
  });

  it("hands that same object to each middleware and to its fetch, and reads nothing of it but its method", async () => {
    const { client, touched, seen } = recordingClient();
    const signal = new AbortController().signal;
    const answer = await client.POST("/web/track", { body: { page: "/" }, signal });
    assert.deepEqual(answer.data, { ok: true });
    assert.ok(seen.fetch !== undefined && seen.onRequest === seen.fetch && seen.onResponse === seen.fetch);
    // `in` for each option of the caller's own (openapi-fetch sets on the request those it does not have); `method`
    // to know a HEAD, whose answer it does not parse.
    assert.deepEqual(touched, ["in signal", "in method", "read method"]);
    touched.length = 0;
    await client.HEAD("/pdfs/{fileName}", { params: { path: { fileName: "BankHolidays.pdf" } } });
    assert.deepEqual(touched, ["in method", "read method"]);
  });
});

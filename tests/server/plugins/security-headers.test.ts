// server/plugins/security-headers.ts: every answer carries the security headers, even the refusal of an address that
// cannot be read; helmet's middleware built once per policy gives each kind of answer what @fastify/helmet would give
// it; an answer's CSP nonce is one per answer, never another answer's, drawn from pooled random bytes.
import assert from "node:assert/strict";
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { describe, it, test } from "node:test";
import fastifyHelmet from "@fastify/helmet";
import Fastify, { type FastifyInstance } from "fastify";
import { PortalClient } from "#harness/portal-client.ts";
import {
  nonceOf,
  nonceSource,
  pageDirectives,
  pagePolicy,
  pooledRandomBytes,
  securityHeaders,
  securityHeadersPlugin,
} from "#server/plugins/security-headers.ts";
import { portalsOnFakeForFile } from "#tests/support/portal-on-fake.ts";

/** A portal on a fake upstream, closed after the file's tests. */
const onFake = portalsOnFakeForFile();

describe("the security headers", () => {
  it("a malformed address is refused with the security headers of every answer", async () => {
    const { app } = await onFake();
    for (const url of ["/%", "/client/%zz"]) {
      const answer = await new PortalClient(app).get(url);
      assert.equal(answer.status, 400, url);
      assert.equal(answer.headers["x-content-type-options"], "nosniff", url);
      assert.match(String(answer.headers["strict-transport-security"]), /max-age=31536000/, url);
      assert.match(String(answer.headers["content-security-policy"]), /default-src 'none'/, url);
      assert.equal(answer.headers["referrer-policy"], "same-origin", url);
    }
  });

  it("a page's policy is its own directives and nothing more; every other answer's loads nothing: none of helmet's defaults (fonts from any https: origin, inline styles) is merged in", async () => {
    const { app } = await onFake();
    const browser = new PortalClient(app);
    const page = directivesOf(String((await browser.get("/")).headers["content-security-policy"]));
    assert.deepEqual([...page.keys()].sort(), Object.keys(pageDirectives).sort(), "the page's directives only");
    for (const [name, values] of page)
      assert.deepEqual(
        values.filter((value) => !value.startsWith("'nonce-")),
        pageDirectives[name as keyof typeof pageDirectives].filter((value) => typeof value === "string"),
        name,
      );
    for (const url of ["/healthz", "/api/no-such-call", "/%"]) {
      const policy = String((await browser.get(url)).headers["content-security-policy"]);
      assert.equal(policy, "default-src 'none';base-uri 'none';frame-ancestors 'self'", url);
    }
  });
});

/** `default-src 'self';script-src …` → { "default-src": ["'self'"], … } */
function directivesOf(policy: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of policy.split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) directives.set(name, values);
  }
  return directives;
}

function routes(app: FastifyInstance, pageOptions: object): void {
  app.get("/page", pageOptions, (_request, reply) => reply.type("text/html").send(`<p>${nonceOf(reply.raw)}</p>`));
  app.get("/data", () => ({ ok: true }));
}

async function headersOf(app: FastifyInstance, url: string) {
  const answer = await new PortalClient(app, { islandsHeader: false }).get(url);
  const nonce = answer.text.match(/<p>(.+)<\/p>/)?.[1];
  const headers = { ...answer.headers };
  for (const name of ["date", "content-length", "connection"]) delete headers[name];
  const policy = String(headers["content-security-policy"]);
  if (nonce) {
    assert.ok(policy.includes(`'nonce-${nonce}'`), "the policy names the nonce the page carries");
    headers["content-security-policy"] = policy.replaceAll(nonce, "NONCE");
  }
  return { status: answer.status, headers };
}

test("every kind of answer gets the headers @fastify/helmet would give it: a page, data, a missing route", async () => {
  const portal = Fastify();
  await portal.register(securityHeadersPlugin);
  routes(portal, { config: { policy: "page" } });
  const reference = Fastify();
  await reference.register(fastifyHelmet, securityHeaders);
  routes(reference, { helmet: { contentSecurityPolicy: pagePolicy } });
  for (const url of ["/page", "/data", "/missing"])
    assert.deepEqual(await headersOf(portal, url), await headersOf(reference, url), url);
  await Promise.all([portal.close(), reference.close()]);
});

test("each page answer has a nonce of its own", async () => {
  const app = Fastify();
  await app.register(securityHeadersPlugin);
  routes(app, { config: { policy: "page" } });
  const browser = new PortalClient(app, { islandsHeader: false });
  const [first, second] = await Promise.all([browser.get("/page"), browser.get("/page")]);
  assert.notEqual(first.headers["content-security-policy"], second.headers["content-security-policy"]);
  await app.close();
});

const answer = () => new ServerResponse(new IncomingMessage(new Socket()));

describe("the CSP nonce", () => {
  it("is 128 random bits in base64, the same for every part of one answer", () => {
    const response = answer();
    const nonce = nonceOf(response);
    assert.equal(Buffer.from(nonce, "base64").length, 16);
    assert.equal(nonceOf(response), nonce, "the page's scripts and the policy name the same nonce");
    assert.equal(nonceSource(undefined, response), `'nonce-${nonce}'`);
  });

  it("differs from one answer to the next", () => {
    const nonces = new Set(Array.from({ length: 1_000 }, () => nonceOf(answer())));
    assert.equal(nonces.size, 1_000);
  });
});

describe("pooled random bytes", () => {
  it("hands out the asked number of bytes, a copy the caller owns", () => {
    const bytes = pooledRandomBytes(16);
    assert.equal(bytes.length, 16);
    const kept = Buffer.from(bytes);
    for (let i = 0; i < 600; i++) pooledRandomBytes(16);
    assert.deepEqual(bytes, kept, "refilling the pool does not change bytes already handed out");
  });

  it("never hands out the same bytes twice, across several refills of the pool", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2_000; i++) seen.add(pooledRandomBytes(16).toString("hex"));
    assert.equal(seen.size, 2_000);
  });

  it("draws bytes that look random: every value of a byte appears, none far too often", () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 1_024; i++) for (const byte of pooledRandomBytes(64)) counts[byte] = (counts[byte] ?? 0) + 1;
    // 65,536 bytes: 256 of each value expected; a broken pool (zeros, a repeated block) is far outside these bounds.
    assert.ok(Math.min(...counts) > 150, `least frequent: ${Math.min(...counts)}`);
    assert.ok(Math.max(...counts) < 380, `most frequent: ${Math.max(...counts)}`);
  });
});

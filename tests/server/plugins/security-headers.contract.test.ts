// What server/plugins/security-headers.ts relies on in helmet, pinned: a release that renames an option, changes a
// header or keeps state between answers fails here, before the portal's answers go out with other headers than
// SECURITY.md's.
import assert from "node:assert/strict";
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { describe, it } from "node:test";
import helmet from "helmet";
import { pagePolicy, securityHeaders } from "#server/plugins/security-headers.ts";

const answer = () => {
  const request = new IncomingMessage(new Socket());
  return { request, response: new ServerResponse(request) };
};

/** The headers one run of `middleware` writes on a fresh answer, and how it ended. */
function run(middleware: ReturnType<typeof helmet>) {
  const { request, response } = answer();
  response.setHeader("x-powered-by", "something");
  const ended: unknown[][] = [];
  middleware(request, response, (...args: unknown[]) => ended.push(args));
  return { headers: response.getHeaders(), ended, response };
}

/** Every answer's headers but its policy: the same for both of the portal's middlewares. */
const everyAnswer = {
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "origin-agent-cluster": "?1",
  "referrer-policy": "same-origin",
  "strict-transport-security": "max-age=31536000; includeSubDomains",
  "x-content-type-options": "nosniff",
  "x-dns-prefetch-control": "off",
  "x-download-options": "noopen",
  "x-frame-options": "SAMEORIGIN",
  "x-permitted-cross-domain-policies": "none",
  "x-xss-protection": "0",
};

describe("helmet, as the security headers built once rely on it", () => {
  it("gives, with the portal's options, exactly these headers, removes X-Powered-By, and then calls next once with nothing", () => {
    const { headers, ended } = run(helmet(securityHeaders));
    assert.deepEqual(
      { ...headers },
      { ...everyAnswer, "content-security-policy": "default-src 'none';base-uri 'none';frame-ancestors 'self'" },
    );
    assert.deepEqual(ended, [[]], "next, once, with no error");
  });

  it("takes each option by the name the portal gives it: hsts, referrerPolicy, crossOriginResourcePolicy, contentSecurityPolicy with useDefaults and directives", () => {
    const { headers } = run(
      helmet({
        hsts: { maxAge: 5, includeSubDomains: false },
        referrerPolicy: { policy: "no-referrer" },
        crossOriginResourcePolicy: { policy: "same-site" },
        contentSecurityPolicy: { useDefaults: false, directives: { "default-src": ["'self'"] } },
      }),
    );
    assert.equal(headers["strict-transport-security"], "max-age=5");
    assert.equal(headers["referrer-policy"], "no-referrer");
    assert.equal(headers["cross-origin-resource-policy"], "same-site");
    assert.equal(headers["content-security-policy"], "default-src 'self'", "the directives given, none of its own");
  });

  it("calls a directive function with each answer's request and response, so one middleware serves every answer with its own value", () => {
    const seen: unknown[][] = [];
    const middleware = helmet({
      ...securityHeaders,
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          "default-src": ["'self'"],
          "script-src": [
            (request: IncomingMessage, response: ServerResponse) => {
              seen.push([request, response]);
              return `'nonce-${String(response.getHeader("x-test-nonce"))}'`;
            },
          ],
        },
      },
    });
    const policies = ["first", "second"].map((nonce) => {
      const { request, response } = answer();
      response.setHeader("x-test-nonce", nonce);
      middleware(request, response, () => {});
      assert.deepEqual(seen.at(-1), [request, response]);
      return response.getHeader("content-security-policy");
    });
    assert.deepEqual(policies, [
      "default-src 'self';script-src 'nonce-first'",
      "default-src 'self';script-src 'nonce-second'",
    ]);
  });

  it("gives the pages' policy as its directives are written, a function's value in its place", () => {
    const { headers } = run(helmet({ ...securityHeaders, contentSecurityPolicy: pagePolicy }));
    const policy = String(headers["content-security-policy"]).replace(/'nonce-[A-Za-z0-9+/=]+'/g, "'nonce-N'");
    assert.equal(
      policy,
      "default-src 'self';script-src 'strict-dynamic' 'self' 'nonce-N';style-src 'self' 'nonce-N';img-src 'self' data:;" +
        "frame-src 'self';object-src 'none';base-uri 'none';form-action 'self';frame-ancestors 'self'",
    );
    assert.deepEqual({ ...headers, "content-security-policy": "" }, { ...everyAnswer, "content-security-policy": "" });
  });
});

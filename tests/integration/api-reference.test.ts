// The upstream API's reference page: served in development with its assets and the spec, never in test or production.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { type RunningPortal, startPortal } from "#tests/support/portal.ts";

const spec = await readFile(new URL("../../openapi/portal.yaml", import.meta.url), "utf8");

describe("the API reference in development", () => {
  let portal: RunningPortal;
  before(async () => {
    portal = await startPortal({ env: { NODE_ENV: "development" }, listen: false });
  });
  after(() => portal.close());

  it("/reference is an HTML page under the portal's CSP, every script external and carrying the answer's nonce", async () => {
    const answer = await portal.app.inject("/reference");
    assert.equal(answer.statusCode, 200);
    assert.match(String(answer.headers["content-type"]), /^text\/html/);
    const policy = String(answer.headers["content-security-policy"]);
    assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval/);
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    assert.ok(nonce, policy);
    const scripts = [...answer.body.matchAll(/<script\b[^>]*>([^<]*)<\/script>/gi)];
    assert.equal(scripts.length, 2);
    for (const [tag, inline] of scripts) {
      assert.ok(tag.includes(`nonce="${nonce}"`) && /\ssrc="\/reference\//.test(tag), tag);
      assert.equal(inline, "", "no inline script");
    }
  });

  it("the page's stylesheet and scripts load, and the initializer points at /reference/portal.yaml", async () => {
    const page = await portal.app.inject("/reference");
    const urls = [...page.body.matchAll(/(?:src|href)="(\/reference\/[^"]+)"/g)].map(([, url]) => url as string);
    assert.deepEqual(urls, [
      "/reference/swagger-ui.css",
      "/reference/swagger-ui-bundle.js",
      "/reference/initializer.js",
    ]);
    for (const url of urls) {
      const asset = await portal.app.inject(url);
      assert.equal(asset.statusCode, 200, url);
      assert.match(String(asset.headers["content-type"]), url.endsWith(".css") ? /^text\/css/ : /^text\/javascript/);
      assert.ok(asset.body.length > 0, url);
    }
    const bundle = await portal.app.inject("/reference/swagger-ui-bundle.js");
    assert.match(bundle.body, /SwaggerUIBundle/);
    const initializer = await portal.app.inject("/reference/initializer.js");
    assert.match(initializer.body, /url: "\/reference\/portal\.yaml"/);
  });

  it("/reference/portal.yaml is openapi/portal.yaml, character for character", async () => {
    const answer = await portal.app.inject("/reference/portal.yaml");
    assert.equal(answer.statusCode, 200);
    assert.match(String(answer.headers["content-type"]), /^application\/yaml/);
    assert.equal(answer.body, spec);
  });
});

for (const mode of ["test", "production"]) {
  describe(`the API reference in ${mode} mode`, () => {
    let portal: RunningPortal;
    before(async () => {
      // Production on the sandbox needs its deliberate opt-in (B1).
      portal = await startPortal({ env: { NODE_ENV: mode, SANDBOX: "true" }, listen: false });
    });
    after(() => portal.close());

    it("is not served: its paths answer as any unknown path does", async () => {
      const unknown = await portal.app.inject("/no-such-page");
      for (const url of ["/reference", "/reference/portal.yaml", "/reference/swagger-ui-bundle.js"]) {
        const answer = await portal.app.inject(url);
        assert.notEqual(answer.statusCode, 200, url);
        assert.equal(answer.statusCode, unknown.statusCode, url);
        assert.equal(answer.headers.location, unknown.headers.location, url);
        assert.doesNotMatch(answer.body, /swagger|openapi:/i, url);
      }
    });
  });
}

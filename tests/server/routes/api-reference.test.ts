// The upstream API's reference page (@fastify/swagger-ui): served in development with its assets and the spec, never in test or production.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { parse } from "yaml";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";

const spec: unknown = parse(await readFile(new URL("../../../openapi/portal.yaml", import.meta.url), "utf8"));

describe("the API reference in development", () => {
  let portal: RunningPortal;
  before(async () => {
    portal = await startPortalInProcess({ env: { NODE_ENV: "development" }, listen: false });
  });
  after(() => portal.close());

  it("/reference is an HTML page whose policy allows only its own scripts, every script external", async () => {
    const answer = await portal.app.inject("/reference");
    assert.equal(answer.statusCode, 200);
    assert.match(String(answer.headers["content-type"]), /^text\/html/);
    const policy = String(answer.headers["content-security-policy"]);
    assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval|https:|\*/);
    assert.match(policy, /script-src 'self'(;|$)/);
    assert.match(policy, /frame-ancestors 'none'/);
    const scripts = [...answer.body.matchAll(/<script\b[^>]*>([^<]*)<\/script>/gi)];
    assert.ok(scripts.length >= 2, "the bundle and the initializer");
    for (const [tag, inline] of scripts) {
      assert.match(tag, /\ssrc="\/reference\/static\/[^"]+\.js"/, tag);
      assert.equal(inline?.trim(), "", "no inline script");
    }
  });

  it("the page's stylesheets and scripts load, and the initializer reads the spec from /reference/json", async () => {
    const page = await portal.app.inject("/reference");
    const urls = [...page.body.matchAll(/(?:src|href)="(\/reference\/[^"]+\.(?:css|js))"/g)].map(
      ([, url]) => url as string,
    );
    assert.ok(urls.includes("/reference/static/swagger-ui-bundle.js"), urls.join());
    assert.ok(urls.includes("/reference/static/swagger-initializer.js"), urls.join());
    for (const url of urls) {
      const asset = await portal.app.inject(url);
      assert.equal(asset.statusCode, 200, url);
      assert.match(String(asset.headers["content-type"]), url.endsWith(".css") ? /^text\/css/ : /javascript/, url);
      assert.ok(asset.body.length > 0, url);
    }
    const bundle = await portal.app.inject("/reference/static/swagger-ui-bundle.js");
    assert.match(bundle.body, /SwaggerUIBundle/);
    const initializer = await portal.app.inject("/reference/static/swagger-initializer.js");
    assert.match(initializer.body, /resolveUrl\('\.\/json'\)/);
    assert.match(initializer.body, /"supportedSubmitMethods":\s*\[\]/, "try-it-out is off");
  });

  it("/reference/json and /reference/yaml are openapi/portal.yaml", async () => {
    const json = await portal.app.inject("/reference/json");
    assert.equal(json.statusCode, 200);
    assert.match(String(json.headers["content-type"]), /^application\/json/);
    assert.deepEqual(json.json(), spec);
    const yaml = await portal.app.inject("/reference/yaml");
    assert.equal(yaml.statusCode, 200);
    assert.match(String(yaml.headers["content-type"]), /yaml/);
    assert.deepEqual(parse(yaml.body), spec);
  });
});

for (const mode of ["test", "production"]) {
  describe(`the API reference in ${mode} mode`, () => {
    let portal: RunningPortal;
    before(async () => {
      // Production on the sandbox needs its deliberate opt-in (B1).
      portal = await startPortalInProcess({ env: { NODE_ENV: mode, SANDBOX: "true" }, listen: false });
    });
    after(() => portal.close());

    it("is not served: its paths answer as any unknown path does", async () => {
      const unknown = await portal.app.inject("/no-such-page");
      for (const url of [
        "/reference",
        "/reference/json",
        "/reference/yaml",
        "/reference/static/swagger-ui-bundle.js",
      ]) {
        const answer = await portal.app.inject(url);
        assert.notEqual(answer.statusCode, 200, url);
        assert.equal(answer.statusCode, unknown.statusCode, url);
        assert.equal(answer.headers.location, unknown.headers.location, url);
        assert.doesNotMatch(answer.body, /swagger|openapi:/i, url);
      }
    });
  });
}

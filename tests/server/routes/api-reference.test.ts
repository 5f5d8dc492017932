// The upstream API's reference page (@fastify/swagger-ui): served in development with its assets and the spec, never in test or production.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { parse } from "yaml";
import { PortalClient } from "#harness/portal-client.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";

const spec: unknown = parse(await readFile(new URL("../../../openapi/portal.yaml", import.meta.url), "utf8"));

describe("the API reference in development", () => {
  let portal: RunningPortal;
  before(async () => {
    portal = await startPortalInProcess({ env: { NODE_ENV: "development" }, listen: false });
  });
  after(() => portal.close());

  it("/reference is an HTML page whose policy allows only its own scripts, every script external", async () => {
    const answer = await new PortalClient(portal.app).get("/reference");
    assert.equal(answer.status, 200);
    assert.match(String(answer.headers["content-type"]), /^text\/html/);
    const policy = String(answer.headers["content-security-policy"]);
    assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval|https:|\*/);
    assert.match(policy, /script-src 'self'(;|$)/);
    assert.match(policy, /frame-ancestors 'none'/);
    const scripts = [...answer.text.matchAll(/<script\b[^>]*>([^<]*)<\/script>/gi)];
    assert.ok(scripts.length >= 2, "the bundle and the initializer");
    for (const [tag, inline] of scripts) {
      assert.match(tag, /\ssrc="\/reference\/static\/[^"]+\.js"/, tag);
      assert.equal(inline?.trim(), "", "no inline script");
    }
  });

  it("the page's stylesheets and scripts load, and the initializer reads the spec from /reference/json", async () => {
    const page = await new PortalClient(portal.app).get("/reference");
    const urls = [...page.text.matchAll(/(?:src|href)="(\/reference\/[^"]+\.(?:css|js))"/g)].map(
      ([, url]) => url as string,
    );
    assert.ok(urls.includes("/reference/static/swagger-ui-bundle.js"), urls.join());
    assert.ok(urls.includes("/reference/static/swagger-initializer.js"), urls.join());
    for (const url of urls) {
      const asset = await new PortalClient(portal.app).get(url);
      assert.equal(asset.status, 200, url);
      assert.match(String(asset.headers["content-type"]), url.endsWith(".css") ? /^text\/css/ : /javascript/, url);
      assert.ok(asset.text.length > 0, url);
    }
    const bundle = await new PortalClient(portal.app).get("/reference/static/swagger-ui-bundle.js");
    assert.match(bundle.text, /SwaggerUIBundle/);
    const initializer = await new PortalClient(portal.app).get("/reference/static/swagger-initializer.js");
    assert.match(initializer.text, /resolveUrl\('\.\/json'\)/);
    assert.match(initializer.text, /"supportedSubmitMethods":\s*\[\]/, "try-it-out is off");
  });

  it("/reference/json and /reference/yaml are openapi/portal.yaml", async () => {
    const json = await new PortalClient(portal.app).get("/reference/json");
    assert.equal(json.status, 200);
    assert.match(String(json.headers["content-type"]), /^application\/json/);
    assert.deepEqual(json.json(), spec);
    const yaml = await new PortalClient(portal.app).get("/reference/yaml");
    assert.equal(yaml.status, 200);
    assert.match(String(yaml.headers["content-type"]), /yaml/);
    assert.deepEqual(parse(yaml.text), spec);
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
      const unknown = await new PortalClient(portal.app).get("/no-such-page");
      for (const url of [
        "/reference",
        "/reference/json",
        "/reference/yaml",
        "/reference/static/swagger-ui-bundle.js",
      ]) {
        const answer = await new PortalClient(portal.app).get(url);
        assert.notEqual(answer.status, 200, url);
        assert.equal(answer.status, unknown.status, url);
        assert.equal(answer.headers.location, unknown.headers.location, url);
        assert.doesNotMatch(answer.text, /swagger|openapi:/i, url);
      }
    });
  });
}

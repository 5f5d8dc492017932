// The portal's configuration: validated at start, a bad value stops it with a message naming the value.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError, loadConfig } from "#server/config.ts";
import { shutdownGraceMs, stopTimings } from "#server/plugins/shutdown.ts";

const key = "0123456789abcdef".repeat(4);
const quiet = () => {};

describe("configuration", () => {
  it("has working defaults for development, with a generated session key and a loud warning", () => {
    const warnings: string[] = [];
    const config = loadConfig({}, (message) => warnings.push(message));
    assert.equal(config.port, 3000);
    assert.equal(config.upstreamUrl, undefined, "no upstream: the sandbox");
    assert.equal(config.sessionKeys.length, 1);
    assert.equal(config.sessionKeys[0]?.length, 32);
    assert.match(warnings.join(), /SESSION_KEY is not set/);
  });

  it("gives a start the stop's full grace and deadlines; their scale is for tests, refused in production", () => {
    const production = { NODE_ENV: "production", SESSION_KEY: key, UPSTREAM_URL: "https://api.provider.example" };
    const config = loadConfig(production, quiet);
    const timings = stopTimings(config.stopScale);
    assert.deepEqual(timings, { leastGraceMs: 10_000, closeReserveMs: 3_000, visitFlushMs: 7_000 }, "README's");
    assert.equal(shutdownGraceMs(config.upstreamTimeoutMs, timings), 13_000, "10 s of upstream deadline, plus 3 s");
    assert.equal(loadConfig({ SESSION_KEY: key }, quiet).stopScale, 1, "development too");
    assert.throws(
      () => loadConfig({ ...production, TEST_STOP_SCALE: "0.1" }, quiet),
      /TEST_STOP_SCALE: tests only; a production stop keeps its full grace/,
    );
    assert.equal(loadConfig({ NODE_ENV: "test", SESSION_KEY: key, TEST_STOP_SCALE: "0.1" }, quiet).stopScale, 0.1);
  });

  it("reads the portal's and the upstream's addresses without a trailing slash, so links never get two", () => {
    const config = loadConfig(
      { UPSTREAM_URL: "https://api.provider.example/v1//", PUBLIC_URL: "https://portal.example/" },
      quiet,
    );
    assert.equal(config.upstreamUrl, "https://api.provider.example/v1");
    assert.equal(config.publicUrl, "https://portal.example");
  });

  it("stops a start behind a proxy without PUBLIC_URL, naming both: never any Host name silently", () => {
    assert.throws(
      () => loadConfig({ TRUST_PROXY: "true" }, quiet),
      /TRUST_PROXY: true needs PUBLIC_URL: behind a proxy the portal answers only for PUBLIC_URL's Host name/,
    );
    assert.equal(loadConfig({ TRUST_PROXY: "true", PUBLIC_URL: "https://portal.example" }, quiet).trustProxy, true);
  });

  it("stops a production start without SESSION_KEY", () => {
    assert.throws(
      () => loadConfig({ NODE_ENV: "production", UPSTREAM_URL: "https://api.provider.example" }, quiet),
      (error: Error) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /SESSION_KEY: required in production/);
        return true;
      },
    );
  });

  it("B1: a production start stops without UPSTREAM_URL, naming it, unless SANDBOX=true opts in to the sandbox", () => {
    assert.throws(
      () => loadConfig({ NODE_ENV: "production", SESSION_KEY: key }, quiet),
      (error: Error) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /UPSTREAM_URL: required in production/);
        assert.match(error.message, /SANDBOX=true/);
        return true;
      },
    );
    assert.throws(() => loadConfig({ NODE_ENV: "production", SESSION_KEY: key, SANDBOX: "false" }, quiet), ConfigError);
    const demo = loadConfig({ NODE_ENV: "production", SESSION_KEY: key, SANDBOX: "true" }, quiet);
    assert.equal(demo.upstreamUrl, undefined, "the sandbox, on purpose");
    const real = loadConfig(
      { NODE_ENV: "production", SESSION_KEY: key, UPSTREAM_URL: "https://api.provider.example" },
      quiet,
    );
    assert.equal(real.upstreamUrl, "https://api.provider.example");
    assert.equal(loadConfig({ SESSION_KEY: key }, quiet).upstreamUrl, undefined, "development needs no opt-in");
  });

  it("B1: a forgotten NODE_ENV does not serve the sandbox beyond this machine: another HOST needs SANDBOX=true", () => {
    assert.throws(() => loadConfig({ HOST: "0.0.0.0" }, quiet), /HOST: 0\.0\.0\.0 would serve the embedded sandbox/);
    assert.equal(loadConfig({ HOST: "0.0.0.0", SANDBOX: "true" }, quiet).host, "0.0.0.0", "on purpose");
    assert.equal(loadConfig({ HOST: "0.0.0.0", UPSTREAM_URL: "https://api.provider.example" }, quiet).host, "0.0.0.0");
    assert.equal(loadConfig({ HOST: "localhost" }, quiet).host, "localhost", "this machine");
  });

  it("B1: SANDBOX=true is refused beside UPSTREAM_URL, and names both problems of a bare production start", () => {
    assert.throws(
      () => loadConfig({ SANDBOX: "true", UPSTREAM_URL: "https://api.provider.example" }, quiet),
      /SANDBOX: true starts the embedded sandbox, which UPSTREAM_URL replaces/,
    );
    assert.throws(
      () => loadConfig({ NODE_ENV: "production" }, quiet),
      (error: Error) => /UPSTREAM_URL:/.test(error.message) && /SESSION_KEY:/.test(error.message),
    );
  });

  it("names every bad value at once", () => {
    assert.throws(
      () =>
        loadConfig(
          {
            PORT: "eighty",
            UPSTREAM_URL: "ftp://files",
            SESSION_KEY: "short",
            TAX_BRIDGE: "maybe",
            SUPPORT_EMAIL: "x",
          },
          quiet,
        ),
      (error: Error) => {
        for (const name of ["PORT", "UPSTREAM_URL", "SESSION_KEY", "TAX_BRIDGE", "SUPPORT_EMAIL"]) {
          assert.match(error.message, new RegExp(`${name}:`), name);
        }
        return true;
      },
    );
  });

  it("takes several comma-separated session keys for rotation, the first one signing", () => {
    const other = "f".repeat(64);
    const config = loadConfig({ SESSION_KEY: `${key}, ${other}` }, quiet);
    assert.deepEqual(
      config.sessionKeys.map((buffer) => buffer.toString("hex")),
      [key, other],
    );
  });

  it("reads the upstream, tax-bridge mode, support contacts and the provider name", () => {
    const config = loadConfig(
      {
        SESSION_KEY: key,
        UPSTREAM_URL: "https://api.provider.example/v1/",
        TAX_BRIDGE: "true",
        SUPPORT_PHONE: "1-800-PAY",
        SUPPORT_PHONE_UK: "0800 PAY",
        SUPPORT_EMAIL: "help@provider.example",
        PROVIDER_NAME: "Provider Ltd",
      },
      quiet,
    );
    assert.equal(config.upstreamUrl, "https://api.provider.example/v1");
    assert.equal(config.taxBridge, true);
    assert.deepEqual(config.support, { phone: "1-800-PAY", phoneUk: "0800 PAY", email: "help@provider.example" });
    assert.equal(config.providerName, "Provider Ltd");
  });

  it("reads a yes-or-no setting as true or 1, false, 0 or empty, in any case; unset is its default", () => {
    const flags = (TAX_BRIDGE?: string, COOKIE_SECURE?: string) => {
      const config = loadConfig({ SESSION_KEY: key, TAX_BRIDGE, COOKIE_SECURE }, quiet);
      return [config.taxBridge, config.cookieSecure];
    };
    assert.deepEqual(flags(), [false, true]);
    assert.deepEqual(flags("TRUE", "0"), [true, false]);
    assert.deepEqual(flags("1", "False"), [true, false]);
    assert.deepEqual(flags("", ""), [false, false]);
    assert.throws(() => flags("yes"), /TAX_BRIDGE: Invalid option/);
  });

  it("reads REDIS_URL (redis:// or rediss://, unset by default) and REDIS_KEY_PREFIX (portal: by default)", () => {
    assert.deepEqual(loadConfig({ SESSION_KEY: key }, quiet).redis, { url: undefined, keyPrefix: "portal:" });
    const config = loadConfig(
      { SESSION_KEY: key, REDIS_URL: "rediss://:secret@redis.example:6380/2", REDIS_KEY_PREFIX: "billing:" },
      quiet,
    );
    assert.deepEqual(config.redis, { url: "rediss://:secret@redis.example:6380/2", keyPrefix: "billing:" });
    assert.throws(
      () => loadConfig({ SESSION_KEY: key, REDIS_URL: "http://redis:6379", REDIS_KEY_PREFIX: "a*b" }, quiet),
      (error: Error) => {
        assert.match(error.message, /REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/);
        assert.match(error.message, /REDIS_KEY_PREFIX:/);
        return true;
      },
    );
  });

  it("reads OTEL_EXPORTER_OTLP_ENDPOINT (an http(s) URL, unset by default: no tracing) and OTEL_SERVICE_NAME", () => {
    assert.deepEqual(loadConfig({ SESSION_KEY: key, OTEL_EXPORTER_OTLP_ENDPOINT: "" }, quiet).tracing, {
      endpoint: undefined,
      serviceName: "payments-portal",
    });
    const config = loadConfig(
      { SESSION_KEY: key, OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SERVICE_NAME: "portal-eu" },
      quiet,
    );
    assert.deepEqual(config.tracing, { endpoint: "http://collector:4318", serviceName: "portal-eu" });
    assert.throws(
      () => loadConfig({ SESSION_KEY: key, OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4317" }, quiet),
      /OTEL_EXPORTER_OTLP_ENDPOINT: must be an http\(s\) URL/,
    );
  });
});

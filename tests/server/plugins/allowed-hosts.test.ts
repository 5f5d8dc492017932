// The Host names the portal and the sandbox answer for (server/plugins/allowed-hosts.ts): DNS rebinding reads nothing.
import assert from "node:assert/strict";
import { request } from "node:http";
import { describe, test } from "node:test";
import Fastify from "fastify";
import { PortalClient } from "#harness/portal-client.ts";
import {
  allowedHostNames,
  type HostNames,
  hostAllowed,
  hostOf,
  refuseOtherHosts,
} from "#server/plugins/allowed-hosts.ts";
import { startPortalInProcess } from "#tests/support/portal.ts";

/** An app with the rule registered for these names, and the warnings the registration wrote. */
function appWithRule(allowed: HostNames) {
  const warnings: string[] = [];
  const write = (line: string) => warnings.push((JSON.parse(line) as { msg: string }).msg);
  const app = Fastify({ logger: { level: "warn", stream: { write } } });
  refuseOtherHosts(app, allowed);
  app.get("/", async () => "ok");
  return { app, warnings };
}

/** A GET with the Host header as given, which fetch would not send. */
function getWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { headers: { host } }, (answer) => {
      answer.resume();
      resolve(answer.statusCode ?? 0);
    });
    sent.on("error", reject).end();
  });
}

describe("reading a Host header", () => {
  test("gives the name or address without port, brackets, case or a trailing dot; nothing when malformed", () => {
    assert.equal(hostOf("Portal.Example:443"), "portal.example");
    assert.equal(hostOf("localhost."), "localhost");
    assert.equal(hostOf("[::1]:3000"), "::1");
    assert.equal(hostOf("127.0.0.1"), "127.0.0.1");
    for (const bad of [undefined, "", "a:b:c", "[::1", "x:99999999"]) assert.equal(hostOf(bad), undefined, bad);
  });
});

describe("which names are allowed", () => {
  const loopback = allowedHostNames({ loopback: true });
  test("on loopback in development: loopback names and addresses, never another name", () => {
    for (const host of ["localhost:3000", "app.localhost", "127.0.0.1:3000", "[::1]:3000", "192.0.2.7"])
      assert.ok(hostAllowed(host, loopback), host);
    for (const host of ["rebind.attacker.example:3000", "localhost.attacker.example", undefined])
      assert.ok(!hostAllowed(host, loopback), host);
  });

  test("with PUBLIC_URL: its name too, and still no other", () => {
    const names = allowedHostNames({ publicUrl: "https://portal.example", loopback: false });
    assert.ok(hostAllowed("portal.example", names));
    assert.ok(hostAllowed("10.0.0.5:3000", names), "a probe by the pod's address");
    assert.ok(!hostAllowed("rebind.attacker.example", names));
  });

  test("without PUBLIC_URL, off loopback, any: nothing to derive the names from (behind a proxy, config requires it)", () => {
    assert.deepEqual(allowedHostNames({ loopback: false }), { any: true });
    assert.ok(hostAllowed("any.example", { any: true }));
    for (const none of [undefined, ""]) assert.ok(!hostAllowed(none, { any: true }), "a request naming no host");
  });
});

describe("the portal and its sandbox, asked by a rebound name", () => {
  test("answer 421 and nothing else; by their own names they answer as ever", async () => {
    const portal = await startPortalInProcess({ listen: true });
    try {
      const rebound = await new PortalClient(portal.app).get("/sandbox/mail", { host: "rebind.attacker.example:3000" });
      assert.equal(rebound.status, 421);
      assert.ok(!rebound.text.includes("Mailbox"), rebound.text);
      assert.equal((await new PortalClient(portal.app).get("/sandbox/mail", { host: "localhost:3000" })).status, 200);
      assert.equal(await getWithHost(`${portal.sandboxUrl}/sandbox/mail.json`, "rebind.attacker.example"), 421);
      assert.equal(await getWithHost(`${portal.sandboxUrl}/sandbox/mail.json`, "localhost"), 200);
    } finally {
      await portal.close();
    }
  });

  test("with no name to derive (no PUBLIC_URL, reached from elsewhere), any name is answered and the start says so", async () => {
    const { app, warnings } = appWithRule(allowedHostNames({ loopback: false }));
    assert.equal((await app.inject({ url: "/", headers: { host: "any.example" } })).statusCode, 200);
    assert.match(warnings.join("\n"), /PUBLIC_URL is not set .* any Host name is answered; set PUBLIC_URL/);
    const onLoopback = appWithRule(allowedHostNames({ loopback: true }));
    assert.equal((await onLoopback.app.inject({ url: "/", headers: { host: "any.example" } })).statusCode, 421);
    assert.deepEqual(onLoopback.warnings, [], "on loopback it says nothing");
  });

  test("with PUBLIC_URL set, the portal answers for its name", async () => {
    const portal = await startPortalInProcess({ listen: false, env: { PUBLIC_URL: "https://portal.example" } });
    try {
      assert.equal((await new PortalClient(portal.app).get("/healthz", { host: "portal.example" })).status, 200);
      const refused = await new PortalClient(portal.app).get("/healthz", { host: "other.example" });
      assert.equal(refused.status, 421);
      assert.equal(refused.headers["x-content-type-options"], "nosniff", "the 421 carries every answer's headers");
      assert.match(String(refused.headers["strict-transport-security"]), /max-age=31536000/);
      assert.equal(
        refused.headers["content-security-policy"],
        "default-src 'none';base-uri 'none';frame-ancestors 'self'",
      );
    } finally {
      await portal.close();
    }
  });
});

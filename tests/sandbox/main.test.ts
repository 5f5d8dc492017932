// sandbox/main.ts (`npm run sandbox`): the sandbox alone on the port asked for, its address printed, a clean stop.
import assert from "node:assert/strict";
import { once } from "node:events";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { accounts } from "#harness/sign-in.ts";
import { resetForm } from "#tests/support/reset-link.ts";
import { spawnSource } from "#tests/support/spawned.ts";

async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  await once(server, "close");
  if (address === null || typeof address === "string") throw new Error("not listening");
  return address.port;
}

describe("the sandbox alone (sandbox/main.ts)", () => {
  it("listens on SANDBOX_PORT, prints its address and how a portal uses it, answers, and exits 0 on SIGTERM", async () => {
    const port = await freePort();
    const started = spawnSource("sandbox/main.ts", { SANDBOX_PORT: String(port), SANDBOX_DB: ":memory:" });
    const [, url] = await started.waitFor(/listening at (http:\/\/127\.0\.0\.1:\d+); a portal runs against it/);
    assert.equal(url, `http://127.0.0.1:${port}`);
    assert.match(started.output(), new RegExp(`UPSTREAM_URL=${url} npm start`));
    const mails = await fetch(`${url}/sandbox/mail.json`);
    assert.equal(mails.status, 200);
    assert.deepEqual(await mails.json(), []);
    assert.equal(await started.stop(), 0);
  });

  it("a mailed reset link opens the sandbox's own page; its pages send people to PORTAL_URL's sign-in page", async () => {
    const port = await freePort();
    const portalUrl = "http://localhost:3293";
    const started = spawnSource("sandbox/main.ts", {
      SANDBOX_PORT: String(port),
      SANDBOX_DB: ":memory:",
      PORTAL_URL: portalUrl,
    });
    try {
      const [, url] = await started.waitFor(/listening at (http:\/\/127\.0\.0\.1:\d+);/);
      const { shortname, email } = accounts.victor;
      const asked = await fetch(`${url}/web/reset-pwd`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ clientShortName: shortname, emailAddress: email }),
      });
      assert.equal(asked.status, 200);
      const mails = (await (await fetch(`${url}/sandbox/mail.json`)).json()) as { body: string }[];
      const link = new RegExp(`${url}/sandbox/reset\\?token=[\\w-]+`).exec(mails[0]?.body ?? "")?.[0];
      assert.ok(link, mails[0]?.body);
      const form = await fetch(link);
      assert.equal(form.status, 200);
      assert.match(await form.text(), /Choose a new password/);
      const set = await fetch(`${url}/sandbox/reset`, {
        method: "POST",
        redirect: "manual",
        body: resetForm(new URL(link).pathname + new URL(link).search, "Reset-Fresh-2026!"),
      });
      assert.equal(set.status, 303);
      const done = await (await fetch(`${url}${set.headers.get("location")}`)).text();
      assert.doesNotMatch(done, /have been signed out/);
      assert.match(done, /signs each of them out at its next call to the sandbox/);
      assert.ok(done.includes(`<a href="${portalUrl}/">Go to the sign-in page</a>`));
      const spent = await (await fetch(link)).text();
      assert.ok(spent.includes(`<a href="${portalUrl}/">sign-in page</a>`));
    } finally {
      assert.equal(await started.stop(), 0);
    }
  });

  it("a port in use stops the start with a hint naming SANDBOX_PORT, before the database file is created", async () => {
    const taken = createServer().listen(0, "127.0.0.1");
    await once(taken, "listening");
    const address = taken.address();
    if (address === null || typeof address === "string") throw new Error("not listening");
    const dir = mkdtempSync(join(tmpdir(), "sandbox-port-"));
    const dbPath = join(dir, "sandbox.sqlite");
    try {
      const started = spawnSource("sandbox/main.ts", { SANDBOX_PORT: String(address.port), SANDBOX_DB: dbPath });
      assert.equal(await started.exited, 1);
      assert.match(started.output(), new RegExp(`Port ${address.port} is in use; set SANDBOX_PORT to another port\\.`));
      assert.equal(existsSync(dbPath), false);
    } finally {
      taken.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a wrong setting stops the start, naming it", async () => {
    const started = spawnSource("sandbox/main.ts", { SANDBOX_PORT: "99999", SANDBOX_DB: ":memory:" });
    assert.notEqual(await started.exited, 0);
    assert.match(started.output(), /SANDBOX_PORT/);
  });
});

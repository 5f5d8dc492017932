// sandbox/main.ts (`npm run sandbox`): the sandbox alone on the port asked for, its address printed, a clean stop.
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer } from "node:net";
import { describe, it } from "node:test";
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

  it("a wrong setting stops the start, naming it", async () => {
    const started = spawnSource("sandbox/main.ts", { SANDBOX_PORT: "99999", SANDBOX_DB: ":memory:" });
    assert.notEqual(await started.exited, 0);
    assert.match(started.output(), /SANDBOX_PORT/);
  });
});

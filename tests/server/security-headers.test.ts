// server/security-headers.ts: every answer carries the security headers, even the refusal of an address that cannot
// be read.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { PortalClient } from "#harness/portal-client.ts";
import { type PortalOnFake, portalOnFake } from "#tests/support/portal-on-fake.ts";

const portals: PortalOnFake[] = [];
after(() => Promise.all(portals.map((portal) => portal.close())));
/** A portal on a fake upstream, closed after the file's tests. */
async function onFake(...args: Parameters<typeof portalOnFake>) {
  const portal = await portalOnFake(...args);
  portals.push(portal);
  return portal;
}

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
});

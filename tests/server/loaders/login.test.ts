// server/loaders/login.tsx: the sign-in page says why signing in cannot work when its cookie could not be kept.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PortalClient } from "#harness/portal-client.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";
import { loginNotices } from "#web/texts/login-notices.ts";

let portal: RunningPortal;
describe("server/loaders/login", () => {
  before(async () => {
    portal = await startPortalInProcess({ listen: false });
  });
  after(() => portal.close());

  describe("the sign-in page", () => {
    it("over plain http at another address says why signing in cannot work there", async () => {
      // The text as HTML carries it (its apostrophe escaped).
      const notice = loginNotices.plainHttp.replaceAll("'", "&#x27;");
      const at = (host: string) => new PortalClient(portal.app).get("/", { host });
      assert.ok((await at("192.0.2.10:3000")).text.includes(notice));
      assert.ok(!(await at("localhost:3000")).text.includes(notice));
      assert.ok(!(await at("127.0.0.1:3000")).text.includes(notice));
    });
  });
});

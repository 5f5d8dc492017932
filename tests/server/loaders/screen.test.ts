// server/loaders/screen.ts: what every page's frame shows of the person signed in.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { accounts, signIn } from "#harness/sign-in.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";

let portal: RunningPortal;
describe("server/loaders/screen", () => {
  before(async () => {
    portal = await startPortalInProcess({ listen: false });
  });
  after(() => portal.close());

  describe("the frame of a signed-in page", () => {
    it("the header names the client's company as well as the user", async () => {
      const visitor = await signIn(portal.app, accounts.gary, portal.code);
      const home = await visitor.get("/client/home");
      assert.equal(home.status, 200);
      assert.match(home.text, /GLOBEX/);
    });
  });
});

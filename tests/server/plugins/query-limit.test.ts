// An address may carry at most MAX_QUERY_PARAMETERS query parameters: more are refused, clearly, before any work.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PortalClient } from "#harness/portal-client.ts";
import { MAX_QUERY_PARAMETERS } from "#server/plugins/query-limit.ts";
import { serverTexts } from "#server/texts.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";

let portal: RunningPortal;
describe("server/plugins/query-limit", () => {
  before(async () => {
    portal = await startPortalInProcess({ listen: false });
  });
  after(() => portal.close());

  /** An address typed or followed: no islands' header. */
  const browser = () => new PortalClient(portal.app, { islandsHeader: false });
  const query = (count: number) => Array.from({ length: count }, (_, i) => `k${i}=v`).join("&");

  describe("the bound on query parameters", () => {
    it("refuses more than the bound on every kind of address, with a clear error", async () => {
      for (const path of ["/", "/client/home", "/session/idle", "/api/auth/client-token", "/healthz", "/nowhere"]) {
        for (const count of [MAX_QUERY_PARAMETERS + 1, 1_500]) {
          const answer = await browser().get(`${path}?${query(count)}`);
          assert.equal(answer.status, 400, `${path} with ${count} parameters`);
          const body = answer.json() as { code?: string; description?: string };
          assert.equal(body.code, "invalid-request");
          assert.ok(
            String(body.description).endsWith(serverTexts.tooManyParameters.message(MAX_QUERY_PARAMETERS)),
            body.description,
          );
        }
      }
    });

    it("reads an address at the bound as before", async () => {
      const login = await browser().get(`/?${query(MAX_QUERY_PARAMETERS - 1)}&activeSite=VENDOR`);
      assert.equal(login.status, 200);
      assert.ok(login.text.includes('"activeSite":"VENDOR"'), "the last of 50 parameters is read");
    });
  });
});

// An address may carry at most MAX_QUERY_PARAMETERS query parameters: more are refused, clearly, before any work.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { MAX_QUERY_PARAMETERS } from "#server/plugins/query-limit.ts";
import { serverTexts } from "#server/texts.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";

let portal: RunningPortal;
before(async () => {
  portal = await startPortalInProcess({ listen: false });
});
after(() => portal.close());

const query = (count: number) => Array.from({ length: count }, (_, i) => `k${i}=v`).join("&");

describe("the bound on query parameters", () => {
  it("refuses more than the bound on every kind of address, with a clear error", async () => {
    for (const path of ["/", "/client/home", "/session/idle", "/api/auth/client-token", "/healthz", "/nowhere"]) {
      for (const count of [MAX_QUERY_PARAMETERS + 1, 1_500]) {
        const answer = await portal.app.inject({ url: `${path}?${query(count)}` });
        assert.equal(answer.statusCode, 400, `${path} with ${count} parameters`);
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
    const login = await portal.app.inject({ url: `/?${query(MAX_QUERY_PARAMETERS - 1)}&activeSite=VENDOR` });
    assert.equal(login.statusCode, 200);
    assert.ok(login.body.includes('"activeSite":"VENDOR"'), "the last of 50 parameters is read");
  });
});

// The MFA code is digits only (openapi/portal.yaml): anything else is refused with a clear error, and never sent on.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PortalClient } from "#harness/portal-client.ts";
import { sessionsOnFake } from "#tests/support/portal-on-fake.ts";

const on = sessionsOnFake();

const validate = (code: string) =>
  new PortalClient(on.fake.url).raw("POST", `/api/web/client/mfa/validate/${code}`, {
    "x-portal-request": "1",
    cookie: on.pendingCookie,
  });

describe("the MFA code's characters", () => {
  it("refuses a code with anything but digits before any upstream call, saying which field is wrong", async () => {
    const refused = ["12a456", "%E2%80%AE123456", "123%00456", "12%2034", "%20123456", "%EF%BC%91%EF%BC%92", "-12345"];
    for (const code of refused) {
      const answer = await validate(code);
      assert.equal(answer.status, 400, `${code}: ${answer.text}`);
      const body = JSON.parse(answer.text) as { code?: string; description?: string };
      assert.equal(body.code, "invalid-request", code);
      assert.match(String(body.description), /^Invalid request: params\/code must match pattern/, code);
    }
    assert.deepEqual(on.fake.upstream.calls, [], "no refused code reached the upstream");
  });

  it("sends a code of digits on", async () => {
    const answer = await validate("424242");
    assert.equal(answer.status, 200, answer.text);
    assert.equal(on.fake.upstream.callsTo(/mfa\/validate\/424242$/).length, 1);
  });
});

// server/api/error-shape.ts: of an upstream's failed answer only requirements 8's fields of a 4xx reach the browser;
// a 5xx's own words never do (SECURITY.md item 14).
import { after, before, describe, it } from "node:test";
import { sendJson } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { assertShown, assertStillServing, TIMEOUT_MS, timed } from "#tests/support/failing-upstream.ts";
import { type PortalOnFake, portalOnFake } from "#tests/support/portal-on-fake.ts";

let fake: PortalOnFake;
before(async () => {
  fake = await portalOnFake(undefined, { env: { UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS) } });
});
after(() => fake.close());

describe("a 5xx's own words", () => {
  it("14. faults: a 5xx's own words never reach the browser: a 503 with a detail shows section 8's default", async () => {
    fake.upstream.answer = (_call, response) => sendJson(response, 503, { detail: "Payments are paused until 6 am." });
    const { answer, elapsed } = await timed(() =>
      new PortalClient(fake.app).post("/api/web/reset-pwd", { clientShortName: "", emailAddress: "a@b.example" }),
    );
    assertShown(answer, elapsed, "Action Failed", "503 with detail");
    await assertStillServing(fake);
  });
});

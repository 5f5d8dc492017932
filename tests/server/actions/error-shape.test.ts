// What of an upstream's failed answer reaches the browser (requirements 8): the fields of a 4xx, as text (a string or
// an array of strings), bounded, whatever the answer's label; of a 5xx, its `detail` only, and of a 500 nothing (its
// text is its status's). The catalogue is shown alike whichever dialect the upstream speaks.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { happyUpstream, sendJson } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, DEMO_PASSWORD, signIn } from "#harness/sign-in.ts";
import { dialects, type Refusal } from "#harness/upstream-dialect.ts";
import { errorShape } from "#server/actions/error-shape.ts";
import { assertShown, assertStillServing, TIMEOUT_MS, timed } from "#tests/support/failing-upstream.ts";
import { type PortalOnFake, portalOnFake } from "#tests/support/portal-on-fake.ts";
import { answerMessage } from "#web/api/answer.ts";
import { errorTexts } from "#web/texts/errors.ts";

describe("an upstream error's shape in the browser", () => {
  it("passes a 4xx's detail, description and field errors", () => {
    const body = { detail: "Invalid", description: "Code expired", errors: { code: "Too short" }, trace: "x" };
    assert.deepEqual(errorShape(400, body), {
      detail: "Invalid",
      description: "Code expired",
      errors: { code: "Too short" },
    });
  });

  it("passes nothing of a 500, and of another 5xx its detail only (F9: requirements 8, any non-OK)", () => {
    assert.deepEqual(errorShape(500, { detail: "NullPointerException at com.provider…" }), {});
    assert.deepEqual(errorShape(503, { description: "maintenance", errors: { a: "b" } }), {});
    assert.deepEqual(errorShape(503, { detail: ["Maintenance", "until 12:00"] }), {
      detail: "Maintenance until 12:00",
    });
  });

  it("passes nothing of a body that is not an object", () => {
    for (const body of [null, undefined, "text", 42, true]) assert.deepEqual(errorShape(400, body), {});
  });

  it("drops fields that are not text, and field errors that are not a map of texts", () => {
    assert.deepEqual(errorShape(422, { detail: 5, description: { html: "<b>" }, errors: ["a", "b"] }), {});
    assert.deepEqual(errorShape(422, { errors: { a: "kept", b: 3, c: "last" } }), { errors: { a: "kept", c: "last" } });
    assert.deepEqual(errorShape(422, { detail: [1, "x"], description: ["a", { b: 1 }] }), {});
  });

  it("reads detail, description and each field error whether a string or an array of strings, as its text", () => {
    const problem = {
      type: "https://tools.ietf.org/html/rfc9110#section-15.5.1",
      title: "One or more validation errors occurred.",
      status: 400,
      detail: ["The request was refused."],
      description: ["Check the form", "and send it again."],
      errors: { Email: ["Required."], Password: ["Too weak.", "Too short."] },
      traceId: "00-abc-01",
    };
    assert.deepEqual(errorShape(400, problem), {
      detail: "The request was refused.",
      description: "Check the form and send it again.",
      errors: { Email: "Required.", Password: "Too weak. Too short." },
    });
    assert.equal(answerMessage(400, errorShape(400, problem)), "Too weak. Too short.", "the last entry's text");
  });

  it("never shows an earlier field's text for a last entry that is not text: the detail is shown instead", () => {
    const shape = errorShape(400, { detail: "Refused.", errors: { a: "earlier", b: 3 } });
    assert.deepEqual(shape, { detail: "Refused.", errors: {} });
    assert.equal(answerMessage(400, shape), "Refused.");
    assert.equal(answerMessage(400, errorShape(400, { errors: { a: ["x", 2] } })), errorTexts.actionFailed);
  });

  it("cuts each text at 500 characters and keeps the last 50 field errors", () => {
    const long = "x".repeat(2_000);
    const errors = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`field${i}`, long]));
    const shape = errorShape(400, { detail: long, description: [long], errors: { ...errors, last: [long, long] } });
    assert.equal((shape.detail as string).length, 500);
    assert.equal((shape.description as string).length, 500);
    const kept = shape.errors as Record<string, string>;
    assert.equal(Object.keys(kept).length, 50);
    assert.equal(Object.keys(kept).at(-1), "last", "the last entry is kept");
    assert.ok(Object.values(kept).every((text) => text.length === 500));
  });
});

describe("an upstream error's shape, through the portal", () => {
  let fake: PortalOnFake;
  before(async () => {
    fake = await portalOnFake(undefined, { env: { UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS) } });
  });
  after(() => fake.close());

  it("F9: a 503 with a detail shows its detail (requirements 8: any non-OK answer's detail)", async () => {
    fake.upstream.answer = (_call, response) => sendJson(response, 503, { detail: "Maintenance until 12:00" });
    const { answer, elapsed } = await timed(() =>
      new PortalClient(fake.app).post("/api/web/reset-pwd", { clientShortName: "", emailAddress: "a@b.example" }),
    );
    assert.ok(elapsed < TIMEOUT_MS);
    assert.deepEqual([answer.status, answerMessage(answer.status, answer.json())], [503, "Maintenance until 12:00"]);
    fake.upstream.answer = (_call, response) => sendJson(response, 500, { detail: "Payments are paused until 6 am." });
    const failed = await timed(() =>
      new PortalClient(fake.app).post("/api/web/reset-pwd", { clientShortName: "", emailAddress: "a@b.example" }),
    );
    assertShown(failed.answer, failed.elapsed, errorTexts.internalServerError, "500 with detail");
    await assertStillServing(fake);
  });
});

for (const dialect of dialects) {
  describe(`requirements 8's catalogue, from an upstream speaking the ${dialect} dialect`, () => {
    let fake: PortalOnFake;
    before(async () => {
      fake = await portalOnFake(happyUpstream({ dialect }));
    });
    after(() => fake.close());

    const reset = async (refusal: Refusal) => {
      fake.upstream.answer = happyUpstream({ dialect, refuse: { reset: refusal } });
      const body = { clientShortName: "ACME", emailAddress: "alice@acme.example" };
      const answer = await new PortalClient(fake.app).post("/api/web/reset-pwd", body);
      return answerMessage(answer.status, answer.json());
    };

    it("a 400 shows the last entry of errors, else its description", async () => {
      const errors = { Email: "Required.", Password: "Too weak." };
      assert.equal(await reset({ status: 400, detail: "Refused.", description: "Check it.", errors }), "Too weak.");
      assert.equal(await reset({ status: 400, detail: "Refused.", description: "Check the form." }), "Check the form.");
    });

    it("any other non-OK answer shows its detail, or Action Failed when it has none", async () => {
      assert.equal(await reset({ status: 409, detail: "Already requested." }), "Already requested.");
      assert.equal(await reset({ status: 409 }), errorTexts.actionFailed);
    });

    it("a 403, a 404 and a 500 show their own texts", async () => {
      assert.equal(await reset({ status: 403, detail: "Forbidden." }), errorTexts.accessDenied);
      assert.equal(await reset({ status: 404, detail: "No route." }), errorTexts.endpointNotFound);
      assert.equal(await reset({ status: 500, detail: "Boom." }), errorTexts.internalServerError);
    });

    it("a 401 ends the session with requirements 4.5's message", async () => {
      fake.upstream.answer = happyUpstream({ dialect });
      const client = await signIn(fake.app, accounts.alice, fake.code);
      fake.upstream.answer = happyUpstream({ dialect, refuse: { test: { status: 401, detail: "Token expired." } } });
      const answer = await client.post("/api/web/client/password/test", { userId: "alice", password: DEMO_PASSWORD });
      assert.deepEqual([answer.status, answer.json()], [401, { detail: errorTexts.sessionExpired }]);
      assert.equal((await client.get("/client/home")).status, 302, "signed out");
    });
  });
}

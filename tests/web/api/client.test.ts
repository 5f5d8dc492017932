// requirements 8, "Shared answer handling", through the browser client's one middleware.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createApi, failureText } from "#web/api/client.ts";
import { errorTexts } from "#web/texts/errors.ts";

const outage = (text: string) => `${text}. ${errorTexts.outage}`;

/** A client whose fetch answers with the given status and body. */
function clientAnswering(status: number, body: string | null, onExpired: () => void = () => {}) {
  const fetchStub = async () =>
    new Response(body, { status, headers: body ? { "content-type": "application/json" } : {} });
  return createApi("http://portal.test/api", fetchStub as typeof fetch, onExpired);
}

describe("the islands' client", () => {
  it("makes every non-OK answer fail with the section 8 message as error.detail, a 5xx's with the outage sentence", async () => {
    const cases: [number, unknown, string][] = [
      [400, { errors: { x: "Bad x", y: "Bad y" } }, "Bad y"],
      [400, { description: "Described" }, "Described"],
      [403, {}, "Access Denied"],
      [404, {}, "Endpoint Not Found"],
      [500, {}, outage("Internal Server Error")],
      [502, {}, outage("Action Failed")],
      [503, { detail: "Maintenance until 12:00." }, `Maintenance until 12:00. ${errorTexts.outage}`],
      [418, { detail: "Teapot" }, "Teapot"],
    ];
    for (const [status, body, message] of cases) {
      const { data, error } = await clientAnswering(status, JSON.stringify(body)).POST("/web/reset-pwd", {
        body: { clientShortName: "", emailAddress: "a@b.c" },
      });
      assert.equal(data, undefined);
      assert.equal(error?.detail, message, `status ${status}`);
    }
  });

  it("reads a garbage body of a failed answer as no body", async () => {
    const { error } = await clientAnswering(502, "<html>Bad gateway").POST("/web/reset-pwd", {
      body: { clientShortName: "", emailAddress: "a@b.c" },
    });
    assert.equal(error?.detail, outage("Action Failed"));
  });

  it("on a 401 sends the user away and ends the call with no value", async () => {
    let expired = 0;
    const result = await clientAnswering(401, JSON.stringify({ detail: "x" }), () => expired++).POST(
      "/web/{site}/mfa/generate",
      { params: { path: { site: "client" } } },
    );
    assert.equal(expired, 1);
    assert.equal(result.data, undefined);
    assert.equal(result.error, undefined);
  });

  it("F5: keeps the browser on the page for a 401 to a call made without a session, showing its text", async () => {
    let expired = 0;
    const body = JSON.stringify({ detail: "Your session has expired. Please Login again", code: "refused-unsigned" });
    const { data, error } = await clientAnswering(401, body, () => expired++).POST("/auth/client", {
      body: { shortname: "ACME", username: "alice", password: "pw" },
    });
    assert.equal(expired, 0, "no redirect: the form keeps what was typed");
    assert.equal(data, undefined);
    assert.equal(failureText(error), "Your session has expired. Please Login again");
  });

  it("keeps the browser on the page for a 401 the island explains, with its code", async () => {
    let expired = 0;
    const body = JSON.stringify({
      detail: "Your session has expired. Please Login again",
      code: "mfa-attempts-exhausted",
    });
    const { data, error } = await clientAnswering(401, body, () => expired++).POST("/web/{site}/mfa/validate/{code}", {
      params: { path: { site: "client", code: "123456" } },
    });
    assert.equal(expired, 0);
    assert.equal(data, undefined);
    assert.deepEqual(error, { detail: "Your session has expired. Please Login again", code: "mfa-attempts-exhausted" });
  });

  it("parses an OK answer as JSON", async () => {
    const { data } = await clientAnswering(200, JSON.stringify([{ text: "Passed" }])).POST(
      "/web/{site}/mfa/validate/{code}",
      { params: { path: { site: "client", code: "123456" } } },
    );
    assert.deepEqual(data, [{ text: "Passed" }]);
  });

  it("reports a network failure with section 8's message and the outage sentence, never the browser's own text", async () => {
    const failing = async () => {
      throw new TypeError("Failed to fetch");
    };
    const { error } = await createApi("http://portal.test/api", failing as typeof fetch, () => {}).POST(
      "/web/reset-pwd",
      { body: { clientShortName: "", emailAddress: "a@b.c" } },
    );
    assert.equal(error?.detail, outage("Action Failed"));
  });

  it("sends the header the portal requires of every island call", async () => {
    let seen: string | null = null;
    const spy = async (request: Request) => {
      seen = request.headers.get("X-Portal-Request");
      return new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
    };
    await createApi("http://portal.test/api", spy as typeof fetch, () => {}).POST("/web/reset-pwd", {
      body: { clientShortName: "", emailAddress: "a@b.c" },
    });
    assert.equal(seen, "1");
  });

  it("reads a failed call's message as text, or Action Failed when it has none", () => {
    assert.equal(failureText({ detail: "Too weak." }), "Too weak.");
    for (const error of [undefined, {}, { detail: "" }, { detail: ["Too weak."] }, "text"])
      assert.equal(failureText(error), "Action Failed");
  });
});

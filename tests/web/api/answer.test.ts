// requirements 8, "Shared answer handling": the message of every row.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { answerMessage, failedCallText } from "#web/api/answer.ts";
import { answerCodes, errorTexts } from "#web/texts/errors.ts";

describe("the message of a non-OK answer", () => {
  it("is the answer's detail field", () => {
    assert.equal(answerMessage(409, { detail: "Already paid" }), "Already paid");
  });

  it("is 'Action Failed' when the detail is absent", () => {
    assert.equal(answerMessage(409, {}), "Action Failed");
    assert.equal(answerMessage(502, undefined), "Action Failed");
    assert.equal(answerMessage(503, "not json"), "Action Failed");
  });

  it("for a 400 with an errors object is the value of its last entry", () => {
    assert.equal(answerMessage(400, { errors: { a: "first", b: "last" }, description: "ignored" }), "last");
  });

  it("for a 400 without errors is the description when present", () => {
    assert.equal(answerMessage(400, { description: "Bad date" }), "Bad date");
    assert.equal(answerMessage(400, { detail: "Only detail" }), "Only detail");
    assert.equal(answerMessage(400, {}), "Action Failed");
  });

  it("for a 403 is 'Access Denied'", () => {
    assert.equal(answerMessage(403, { detail: "nope" }), "Access Denied");
  });

  it("for a 404 is 'Endpoint Not Found'", () => {
    assert.equal(answerMessage(404, {}), "Endpoint Not Found");
  });

  it("for the portal's own refusal of a request is 'Action Failed', never the schema's text", () => {
    const schema = "Invalid request: body/password must NOT have fewer than 1 characters";
    assert.equal(answerMessage(400, { code: "invalid-request", description: schema }), "Action Failed");
    assert.equal(
      answerMessage(400, { code: "invalid-request", description: "querystring must NOT have more" }),
      "Action Failed",
    );
  });

  it("for an upstream's 400 is its description, as section 8 says (only the portal's own refusals are hidden)", () => {
    assert.equal(
      answerMessage(400, { description: "Invalid request: the upstream's words" }),
      "Invalid request: the upstream's words",
    );
  });

  it("for a 500 is 'Internal Server Error'", () => {
    assert.equal(answerMessage(500, { detail: "stack trace" }), "Internal Server Error");
  });
});

describe("what a person reads of a failed call", () => {
  it("is section 8's message, unchanged, for an answer below 500", () => {
    assert.equal(failedCallText(409, {}), "Action Failed");
    assert.equal(failedCallText(400, { description: "Bad date" }), "Bad date");
    assert.equal(failedCallText(403, {}), "Access Denied");
  });

  it("adds that the service is not answering, and nothing typed was wrong, when the upstream failed (5xx)", () => {
    assert.equal(failedCallText(502, undefined), `Action Failed. ${errorTexts.outage}`);
    assert.equal(failedCallText(504, {}), `Action Failed. ${errorTexts.outage}`);
    assert.equal(failedCallText(500, { detail: "stack" }), `Internal Server Error. ${errorTexts.outage}`);
    assert.equal(failedCallText(503, { detail: "Back at noon." }), `Back at noon. ${errorTexts.outage}`);
    assert.match(errorTexts.outage, /not answering.*nothing was wrong with what you typed/);
  });

  it("says no outage for a token too large to keep: the upstream answered, and the words say what to do", () => {
    const body = { detail: "The session is too large.", code: answerCodes.sessionTooLarge };
    assert.equal(failedCallText(502, body), "The session is too large.");
  });
});

// One parser decides what a Content-Type is: malformed types are refused with 415 and a clear error before anything is
// read, forwarded or counted against a person's attempts.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { happyUpstream } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { hasBody, isJson, mediaType } from "#server/plugins/content-type.ts";
import { serverTexts } from "#server/texts.ts";
import { malformedContentTypes, wellFormedJsonTypes } from "#tests/support/content-types.ts";
import { type PortalOnFake, portalOnFake } from "#tests/support/portal-on-fake.ts";

describe("the Content-Type parser", () => {
  it("reads a well-formed JSON type, parameters and case aside", () => {
    for (const type of wellFormedJsonTypes) assert.equal(isJson(type), true, type);
    assert.equal(mediaType("Text/Plain; charset=utf-8"), "text/plain");
  });

  it("refuses a malformed type and any other type", () => {
    for (const type of [
      ...malformedContentTypes,
      "application/json5",
      "text/plain",
      "application/x-www-form-urlencoded",
    ])
      assert.equal(isJson(type), false, JSON.stringify(type));
    assert.equal(mediaType(undefined), undefined);
  });

  it("tells a request with a body from one without", () => {
    assert.equal(hasBody({}), false);
    assert.equal(hasBody({ "content-length": "0" }), false);
    assert.equal(hasBody({ "content-length": "2" }), true);
    assert.equal(hasBody({ "transfer-encoding": "chunked" }), true);
  });
});

describe("/api with a malformed Content-Type", () => {
  let fake: PortalOnFake;
  before(async () => {
    fake = await portalOnFake(happyUpstream({ refuseLogins: true }), {
      env: { RATE_LIMIT_USER_PER_MINUTE: "3", RATE_LIMIT_IP_PER_MINUTE: "5" },
    });
  });
  after(() => fake.close());

  const send = (url: string, type: string, payload: unknown) =>
    new PortalClient(fake.app, { remoteAddress: "198.51.100.40" }).post(url, payload, { "content-type": type });

  it("answers 415 with a clear error on sign-in and reset, forwards nothing and counts no attempt", async () => {
    const login = { shortname: "ACME", username: "bob", password: "guess" };
    const reset = { clientShortName: "ACME", emailAddress: "bob@acme.example" };
    for (const type of malformedContentTypes) {
      for (const [url, body] of [
        ["/api/auth/client", login],
        ["/api/web/reset-pwd", reset],
      ] as const) {
        const answer = await send(url, type, body);
        assert.equal(answer.status, 415, `${url} ${JSON.stringify(type)}`);
        assert.match(String(answer.json().description), new RegExp(serverTexts.jsonOnly.message), "says why");
      }
    }
    assert.equal(fake.upstream.calls.length, 0, "nothing reached the upstream");
    const counted = await send("/api/auth/client", "application/json", login);
    assert.equal(counted.status, 200, "bob's own attempt still goes: none of the refused ones counted");
    assert.equal(fake.upstream.calls.length, 1);
  });
});

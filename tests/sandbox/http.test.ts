// The sandbox's HTTP plumbing (sandbox/http.ts): bearer auth, input validation, the error shapes of
// requirements 8 and the body parsers.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import Fastify, { type FastifyInstance } from "fastify";
import {
  bodyObject,
  HttpError,
  installBodyParsers,
  installErrorHandling,
  parseInput,
  textField,
} from "#sandbox/http.ts";
import { type SandboxUnderTest, startSandboxUnderTest } from "#tests/support/sandbox-calls.ts";

let sandbox: SandboxUnderTest;
describe("sandbox/http", () => {
  before(async () => {
    sandbox = await startSandboxUnderTest();
  });
  after(() => sandbox.close());

  /** The errors a 400 from parseInput carries. */
  function refusal(schema: Parameters<typeof parseInput>[0], value: unknown): Record<string, string> | undefined {
    try {
      parseInput(schema, value);
    } catch (error) {
      assert.ok(error instanceof HttpError);
      assert.equal(error.statusCode, 400);
      return error.body.errors;
    }
    assert.fail("the input was accepted");
  }

  /** An app with only the sandbox's parsers and error handling, and routes that fail on purpose. */
  async function plumbing(): Promise<FastifyInstance> {
    const app = Fastify({ logger: false });
    installBodyParsers(app);
    installErrorHandling(app);
    app.post("/echo", async (request) => ({ body: request.body ?? null }));
    app.get("/crash", async () => {
      throw new Error("secret detail of the crash");
    });
    app.get("/known", async () => {
      throw new HttpError(409, { description: "Already there." });
    });
    await app.ready();
    return app;
  }

  describe("bearer tokens", () => {
    test("calls under /web without a token, with an unknown token or with a malformed header answer 401 Unauthorized", async () => {
      for (const token of [undefined, "not-a-token", ""]) {
        const answer = await sandbox.call("GET", "/web/client/user-info", { token });
        assert.equal(answer.status, 401);
        assert.deepEqual(answer.body, { detail: "Unauthorized" });
      }
    });

    test("a token works only on its own site: another site segment answers 403 Access Denied", async () => {
      const vendorToken = await sandbox.unverifiedToken("vendor", "vince");
      const answer = await sandbox.call("POST", "/web/client/mfa/generate", { token: vendorToken });
      assert.equal(answer.status, 403);
      assert.deepEqual(answer.body, { detail: "Access Denied" });
      const clientToken = await sandbox.verifiedByLink("client", "alice");
      assert.equal((await sandbox.call("GET", "/web/vendor/user-info", { token: clientToken })).status, 403);
      const passwordTest = await sandbox.call("POST", "/web/vendor/password/test", { token: clientToken, body: {} });
      assert.equal(passwordTest.status, 403);
    });

    test("the scheme is read in any case and the token may be followed by spaces; any other scheme is refused", async () => {
      const token = await sandbox.verifiedByLink("client", "alice");
      const status = async (authorization: string) =>
        (await fetch(`${sandbox.url}/web/client/user-info`, { headers: { authorization } })).status;
      assert.equal(await status(`bearer ${token}  `), 200);
      assert.equal(await status(`BEARER   ${token}`), 200);
      assert.equal(await status(`Basic ${token}`), 401);
      assert.equal(await status(`Bearer ${token} extra`), 401);
    });
  });

  describe("input validation", () => {
    const login = bodyObject({ username: textField("User ID", 1, 8), code: textField("Code", 4, 6).optional() });

    test("each text field's message names it: required, not empty, too short, too long, not a string", () => {
      assert.deepEqual(refusal(login, {}), { username: "User ID is required." });
      assert.deepEqual(refusal(login, { username: "" }), { username: "User ID must not be empty." });
      assert.deepEqual(refusal(login, { username: "a", code: "12" }), { code: "Code is too short." });
      assert.deepEqual(refusal(login, { username: "a".repeat(9) }), {
        username: "User ID must be at most 8 characters.",
      });
      assert.deepEqual(refusal(login, { username: 7 }), { username: "User ID must be a string." });
    });

    test("an unknown field is refused by name, and a body that is no object under body", () => {
      assert.deepEqual(refusal(login, { username: "a", role: "admin", power: 1 }), {
        role: "This field is not accepted.",
        power: "This field is not accepted.",
      });
      for (const body of [["a"], "a", null, undefined]) {
        assert.deepEqual(refusal(login, body), { body: "The request body must be a JSON object." });
      }
    });

    test("several wrong fields get one message each, and a valid input comes back as parsed", () => {
      assert.deepEqual(Object.keys(refusal(login, { username: "", code: 1 }) ?? {}).sort(), ["code", "username"]);
      assert.deepEqual(parseInput(login, { username: "alice", code: "1234" }), { username: "alice", code: "1234" });
    });
  });

  describe("error shapes and body parsers", () => {
    test("an unknown path answers 404 Not Found as JSON", async () => {
      const answer = await sandbox.call("GET", "/web/client/nothing-here");
      assert.deepEqual([answer.status, answer.body], [404, { detail: "Not Found" }]);
    });

    test("an unexpected failure answers 500 without its message; a known one answers its own status and body", async () => {
      const app = await plumbing();
      try {
        const crash = await app.inject({ method: "GET", url: "/crash" });
        assert.deepEqual([crash.statusCode, crash.json()], [500, { detail: "Internal Server Error" }]);
        const known = await app.inject({ method: "GET", url: "/known" });
        assert.deepEqual([known.statusCode, known.json()], [409, { description: "Already there." }]);
      } finally {
        await app.close();
      }
    });

    test("an empty JSON body reads as no body, a malformed one is a 400 under body, and another media type a 4xx as JSON", async () => {
      const app = await plumbing();
      try {
        const post = (payload: string, contentType: string) =>
          app.inject({ method: "POST", url: "/echo", payload, headers: { "content-type": contentType } });
        assert.deepEqual((await post("  ", "application/json")).json(), { body: null });
        const malformed = await post("{not json", "application/json");
        assert.equal(malformed.statusCode, 400);
        assert.equal(typeof malformed.json().errors.body, "string");
        const poisoned = await post('{"__proto__": {"admin": true}}', "application/json");
        assert.equal(poisoned.statusCode, 400, "Fastify's prototype-poisoning guard stays on");
        const other = await post("<a/>", "application/xml");
        assert.equal(other.statusCode, 415);
        assert.equal(typeof other.json().detail, "string");
      } finally {
        await app.close();
      }
    });

    test("a form body reads as an object of its fields", async () => {
      const app = await plumbing();
      try {
        const answer = await app.inject({
          method: "POST",
          url: "/echo",
          payload: "site=vendor&username=v%C3%A9ra",
          headers: { "content-type": "application/x-www-form-urlencoded" },
        });
        assert.deepEqual(answer.json(), { body: { site: "vendor", username: "véra" } });
      } finally {
        await app.close();
      }
    });
  });
});

// The upstream operations, read from openapi/portal.yaml as generated with every $ref resolved: the only calls the
// portal makes or forwards, each with the schemas its input and its success answer are checked by.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { description } from "#openapi/schema.ts";
import { dereferenced } from "#scripts/dereference.ts";
import { projectFile } from "#server/project-files.ts";
import { loadOperations, routerPath } from "#server/upstream/operations.ts";

describe("the upstream operations", () => {
  it("come from the description as generated from openapi/portal.yaml: an edit not followed by npm run gen:api fails here", async () => {
    assert.deepEqual(description, await dereferenced(projectFile("openapi/portal.yaml")));
  });

  it("are every operation of the description, once each, by method and path", () => {
    const operations = loadOperations();
    const ids = operations.map((operation) => operation.operationId);
    assert.equal(new Set(ids).size, ids.length, "each operation once");
    const validate = operations.find((operation) => operation.operationId === "validateMfaCode");
    assert.equal(validate?.method, "POST");
    assert.equal(validate?.path, "/web/{site}/mfa/validate/{code}");
    assert.deepEqual(Object.keys(((validate?.params ?? {}) as { properties: object }).properties).sort(), [
      "code",
      "site",
    ]);
    assert.ok(ids.includes("getPdf"));
  });

  it("carry their schemas with every $ref resolved, closed to parameters the description does not name", () => {
    const operations = loadOperations();
    const login = operations.find((operation) => operation.operationId === "loginClient");
    assert.ok(login?.body && !JSON.stringify(login.body).includes("$ref"), "the body's schema, resolved");
    assert.ok(login?.answer && !JSON.stringify(login.answer).includes("$ref"), "the answer's schema, resolved");
    const userInfo = operations.find((operation) => operation.operationId === "getUserInfo");
    assert.equal(((userInfo?.params ?? {}) as { additionalProperties?: boolean }).additionalProperties, false);
  });

  it("never reach outside the description: a $ref to another file is not read", async () => {
    const folder = await mkdtemp(join(tmpdir(), "operations-"));
    try {
      await writeFile(join(folder, "elsewhere.yaml"), "Thing: { type: object, title: read from elsewhere }\n");
      const file = join(folder, "spec.yaml");
      await writeFile(
        file,
        [
          "openapi: 3.1.0",
          "info: { title: t, version: '1' }",
          "paths:",
          "  /x:",
          "    get:",
          "      operationId: x",
          "      responses:",
          "        '200':",
          "          content:",
          "            application/json:",
          "              schema: { $ref: 'elsewhere.yaml#/Thing' }",
        ].join("\n"),
      );
      const [operation] = loadOperations(await dereferenced(file));
      assert.deepEqual(operation?.answer, { $ref: "elsewhere.yaml#/Thing" });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("F1: read the status alone of the answers the description gives no shape: those requirements 7.2 read so, and the probe", () => {
    const operations = loadOperations();
    assert.deepEqual(
      operations.filter((operation) => operation.reads === "status").map((operation) => operation.operationId),
      ["generateMfaCode", "resetPassword", "testPassword", "changePassword", "trackPage", "headPdf"],
    );
    const pdf = operations.find((operation) => operation.operationId === "getPdf");
    assert.equal(pdf?.reads, "body", "a document's answer is its body");
  });

  it("know the parameters that name an audience by the sites' values the description gives them, not by their name", async () => {
    const operations = loadOperations();
    const audienceOf = (id: string) => operations.find((operation) => operation.operationId === id)?.audienceParams;
    assert.deepEqual(audienceOf("generateMfaCode"), [{ in: "path", name: "site" }]);
    assert.deepEqual(audienceOf("changePassword"), [{ in: "path", name: "audience" }]);
    assert.deepEqual(audienceOf("loginClient"), []);
    assert.deepEqual(audienceOf("getPdf"), [], "a file name of a list is no audience");
    const folder = await mkdtemp(join(tmpdir(), "operations-"));
    try {
      const file = join(folder, "spec.yaml");
      await writeFile(
        file,
        [
          "openapi: 3.1.0",
          "info: { title: t, version: '1' }",
          "paths:",
          "  /web/{who}/notes/{kind}:",
          "    get:",
          "      operationId: notes",
          "      parameters:",
          "        - { name: who, in: path, required: true, schema: { $ref: '#/components/schemas/Site' } }",
          "        - { name: kind, in: path, required: true, schema: { type: string, enum: [client, other] } }",
          "        - { name: side, in: query, schema: { type: string, enum: [vendor] } }",
          "      responses: { '200': { description: ok } }",
          "components:",
          "  schemas:",
          "    Site: { type: string, enum: [client, vendor] }",
        ].join("\n"),
      );
      const [operation] = loadOperations(await dereferenced(file));
      assert.deepEqual(operation?.audienceParams, [
        { in: "path", name: "who" },
        { in: "query", name: "side" },
      ]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("name their path parameters as Fastify's router does", () => {
    assert.equal(routerPath("/web/{site}/mfa/validate/{code}"), "/web/:site/mfa/validate/:code");
    assert.equal(routerPath("/auth/client"), "/auth/client");
  });
});

// Files the portal reads at run time are found from the project's root, wherever the server's code runs from.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { projectFile, projectRoot } from "#server/project-files.ts";

describe("the project's files", () => {
  it("are found from the folder that holds the project's package.json", () => {
    const manifest = JSON.parse(readFileSync(join(projectRoot, "package.json"), "utf8")) as { name?: string };
    assert.equal(manifest.name, "payments-portal");
    assert.equal(projectFile("openapi/portal.yaml"), join(projectRoot, "openapi/portal.yaml"));
    assert.ok(existsSync(projectFile("openapi/portal.yaml")));
  });
});

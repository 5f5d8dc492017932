// The built assets' URLs come from the build's manifest; without a build the start says what to run.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { projectFile } from "#server/project-files.ts";
import { assetsDir, readManifest } from "#server/render/assets.ts";

describe("the built assets", () => {
  it("live in dist/assets/ of the project, and the manifest names content-hashed files there", () => {
    assert.equal(fileURLToPath(assetsDir), `${projectFile("dist/assets")}/`);
    const manifest = readManifest();
    const files = JSON.stringify(manifest).match(/\/assets\/[^"]+\.(js|css)/g) ?? [];
    assert.ok(files.length > 0, "the manifest names assets");
    for (const file of files) {
      assert.match(file, /[-.][A-Za-z0-9_-]{8,}\.(js|css)$/, `${file} carries its content hash`);
      assert.ok(existsSync(projectFile(`dist${file}`)), `${file} is built`);
    }
  });

  it("each script and stylesheet has a .gz and a .br beside it that open, with node's own zlib, to the same bytes", () => {
    const files = new Set(JSON.stringify(readManifest()).match(/\/assets\/[^"]+\.(js|css)/g));
    for (const file of files) {
      const plain = readFileSync(projectFile(`dist${file}`));
      assert.deepEqual(gunzipSync(readFileSync(projectFile(`dist${file}.gz`))), plain, `${file}.gz`);
      assert.deepEqual(brotliDecompressSync(readFileSync(projectFile(`dist${file}.br`))), plain, `${file}.br`);
    }
  });
});

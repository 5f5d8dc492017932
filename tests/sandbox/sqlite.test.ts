// sandbox/sqlite.ts: node:sqlite loads without Node 22's ExperimentalWarning, and other warnings still print.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, it } from "node:test";

const root = new URL("../..", import.meta.url).pathname;

describe("loading node:sqlite", () => {
  it("prints no warning about SQLite, on Node 22 as on 24, and leaves other warnings alone", () => {
    const script = [
      'const { loadSqlite } = await import("#sandbox/sqlite.ts");',
      'new (loadSqlite().DatabaseSync)(":memory:").prepare("SELECT 1").get();',
      'process.emitWarning("another warning");',
    ].join("\n");
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: root,
      encoding: "utf8",
    });
    assert.equal(run.status, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /SQLite/);
    assert.match(run.stderr, /another warning/);
  });
});

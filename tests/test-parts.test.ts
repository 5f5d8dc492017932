// scripts/test-parts.sh, which `npm test` is: every part runs whatever failed before it, the end names those that
// failed, and the parts get the suite's time factor (TEST_TIME_FACTOR) from the machine's load unless it is set.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";

const script = new URL("../scripts/test-parts.sh", import.meta.url).pathname;

/** Runs the script on a project of its own whose npm scripts are `scripts`. */
function run(scripts: Record<string, string>, parts: string[], env: NodeJS.ProcessEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), "test-parts-"));
  try {
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "parts", private: true, scripts }));
    const { TEST_TIME_FACTOR: _, ...inherited } = process.env;
    const ran = spawnSync("bash", [script, ...parts], { cwd: dir, env: { ...inherited, ...env }, encoding: "utf8" });
    return { status: ran.status, stdout: ran.stdout, lastLine: ran.stderr.trim().split("\n").at(-1) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("npm test's parts", () => {
  it("all run, though one before them failed, and the end says which failed", () => {
    const parts = { first: "exit 3", second: "echo second ran", third: "exit 1" };
    const ran = run(parts, ["first", "second", "third"], { TEST_TIME_FACTOR: "1" });
    assert.equal(ran.status, 1);
    assert.match(ran.stdout, /second ran/);
    assert.equal(ran.lastLine, "test-parts: failed: first third (of first second third)");
  });

  it("pass together when each passes", () => {
    const ran = run({ one: "true", two: "true" }, ["one", "two"], { TEST_TIME_FACTOR: "1" });
    assert.equal(ran.status, 0);
    assert.equal(ran.lastLine, "test-parts: all passed: one two");
  });

  it("get the time factor the suite sets: the one given, else one from the load, at least 1", () => {
    const show = { show: "node -e \"console.log('factor', process.env.TEST_TIME_FACTOR)\"" };
    assert.match(run(show, ["show"], { TEST_TIME_FACTOR: "3" }).stdout, /^factor 3$/m);
    const fromLoad = Number(/^factor (\d+)$/m.exec(run(show, ["show"]).stdout)?.[1]);
    assert.ok(Number.isInteger(fromLoad) && fromLoad >= 1, String(fromLoad));
  });
});

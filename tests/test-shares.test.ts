// scripts/test-shares.ts, which `npm run test:web`, `test:server` and `test:browser` are: the files it is given run in two
// processes side by side, dealt by their seconds, all of them whatever failed; the last line names the share that
// failed. And what a file that shares a process keeps to: its hooks sit in a describe.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { globSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";

const script = new URL("../scripts/test-shares.ts", import.meta.url).pathname;

/** Runs the script over test files named `names`, those in `failing` failing; each notes its name and process. */
function run(names: string[], failing: string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), "test-shares-"));
  try {
    const ran = join(dir, "ran");
    writeFileSync(ran, "");
    const files = names.map((name) => {
      const file = join(dir, `${name}.test.mjs`);
      writeFileSync(
        file,
        `import { appendFileSync } from "node:fs";
import { test } from "node:test";
test(${JSON.stringify(name)}, () => {
  appendFileSync(${JSON.stringify(ran)}, ${JSON.stringify(name)} + " " + process.pid + "\\n");
  if (${failing.includes(name)}) throw new Error("fails on purpose");
});
`,
      );
      return file;
    });
    const done = spawnSync(process.execPath, ["--import", "tsx", script, ...files], { encoding: "utf8" });
    const processOf = new Map(
      readFileSync(ran, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => line.split(" ") as [string, string]),
    );
    return { status: done.status, processOf, lastLine: done.stderr.trim().split("\n").at(-1) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("the two shares of a part of the suite", () => {
  it("deal files of equal seconds in turn, a share in one process, and pass together when each passes", () => {
    const ran = run(["one", "two", "three"]);
    assert.equal(ran.status, 0);
    assert.equal(ran.lastLine, "test-shares: all passed (shares of 2 and 1 files)");
    assert.deepEqual([...ran.processOf.keys()].sort(), ["one", "three", "two"]);
    assert.equal(ran.processOf.get("one"), ran.processOf.get("three"));
    assert.notEqual(ran.processOf.get("one"), ran.processOf.get("two"));
  });

  it("all run, though a file failed, and the end names the share that failed", () => {
    const ran = run(["one", "two", "three", "four"], ["two"]);
    assert.equal(ran.status, 1);
    assert.equal(ran.lastLine, "test-shares: failed: share 2 (shares of 2 and 2 files)");
    assert.equal(ran.processOf.size, 4);
  });
});

describe("a test file that shares its process", () => {
  it("keeps its hooks in a describe: at the file's top they would run for every file of its share, or for all at once", () => {
    const tests = new URL("./", import.meta.url).pathname;
    // Every part of the suite runs in shares (package.json), so every test file under tests/ shares its process.
    const files = globSync("**/*.test.ts", { cwd: tests });
    assert.ok(files.length > 100, `${files.length} files`);
    const atTop = files.filter((file) =>
      /^(before|after|beforeEach|afterEach)\(/m.test(readFileSync(join(tests, file), "utf8")),
    );
    assert.deepEqual(atTop, []);
  });
});

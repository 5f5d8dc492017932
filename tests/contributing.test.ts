// CONTRIBUTING.md's three walks, followed in turn as written on one copy of the project (the form walk uses the
// operation walk's operation): each step applied to the file and line it names, each command run, the files each walk
// changed counted against its heading, and then the checks and tests the walk names run in the copy. A newcomer who
// follows the text changes those files and no other, and the suite passes.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** A step of a walk: an edit of one file at one line, or a command. */
type Step =
  | { kind: "edit"; file: string; how: "after" | "in place of" | "at the end"; anchor?: string; text: string }
  | { kind: "run"; command: string };
type Walk = { title: string; files: number; steps: Step[] };

/**
 * The walks of CONTRIBUTING.md's "Three walks" section: each `###` heading, its file count, and its steps in order. A
 * step that names no file ("and after the line with …") edits the file of the step before it.
 */
function walksOf(markdown: string): Walk[] {
  const start = markdown.indexOf("\n## Three walks");
  assert.ok(start !== -1, 'CONTRIBUTING.md has its "Three walks" section');
  const section = markdown.slice(start + 1, markdown.indexOf("\n## ", start + 1));
  return section
    .split(/\n### /)
    .slice(1)
    .map((part) => {
      const lines = part.split("\n");
      const title = lines[0] ?? "";
      const files = Number(/\((\d+) files\b/.exec(title)?.[1]);
      const steps: Step[] = [];
      let where: Omit<Extract<Step, { kind: "edit" }>, "text"> | undefined;
      let file = "";
      for (let index = 1; index < lines.length; index++) {
        const line = lines[index] ?? "";
        const edit =
          /(?:In `([^`]+)`.*?, )?(after|in place of) the line with `([^`]+)`|In `([^`]+)`, (at the end)/.exec(line);
        if (edit) {
          file = edit[4] ?? edit[1] ?? file;
          where = edit[4]
            ? { kind: "edit", file, how: "at the end" }
            : { kind: "edit", file, how: edit[2] as "after" | "in place of", anchor: edit[3] ?? "" };
        }
        const run = /Run `(npm run [\w:]+)`/.exec(line);
        if (run) steps.push({ kind: "run", command: run[1] ?? "" });
        const fence = /^(\s*)```\w*$/.exec(line);
        if (!fence) continue;
        const indent = fence[1]?.length ?? 0;
        const body: string[] = [];
        for (index++; !/^\s*```$/.test(lines[index] ?? "```"); index++) body.push((lines[index] ?? "").slice(indent));
        assert.ok(where, `${title}: a block of code after a step that names its file and line`);
        steps.push({ ...where, text: body.join("\n") });
        where = undefined;
      }
      return { title, files, steps };
    });
}

/** The project's files, committed or not yet, as the copy starts from them. */
const projectFiles = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
  cwd: root,
  encoding: "utf8",
})
  .split("\n")
  .filter((path) => path !== "");

/** The copy's files that differ from the project's. */
const readIn = (folder: string, path: string) => {
  try {
    return readFileSync(join(folder, path));
  } catch {
    return undefined;
  }
};
/** The project's files as `folder` has them now, to tell what a later walk changed. */
const contentsOf = (folder: string) => new Map(projectFiles.map((path) => [path, readIn(folder, path)]));

/** The files the copy has otherwise than `before` (the project's own, unless given). */
function changedFiles(copy: string, before = contentsOf(root)): string[] {
  return projectFiles.filter((path) => !before.get(path)?.equals(readIn(copy, path) ?? Buffer.alloc(0)));
}

function apply(copy: string, step: Extract<Step, { kind: "edit" }>): void {
  const path = join(copy, step.file);
  const lines = readFileSync(path, "utf8").split("\n");
  if (step.how === "at the end") {
    writeFileSync(path, `${lines.join("\n").trimEnd()}\n\n${step.text}\n`);
    return;
  }
  const found = lines.flatMap((line, index) => (line.includes(step.anchor ?? "") ? [index] : []));
  assert.equal(found.length, 1, `${step.file} has one line with ${step.anchor}`);
  const at = found[0] ?? 0;
  lines.splice(step.how === "after" ? at + 1 : at, step.how === "after" ? 0 : 1, step.text);
  writeFileSync(path, lines.join("\n"));
}

/** A command in the copy, as a newcomer's shell runs it: outside this test's runner. */
function inCopy(copy: string, file: string, args: string[]): { ok: boolean; output: string } {
  const { NODE_TEST_CONTEXT: _runner, ...env } = process.env;
  try {
    const output = execFileSync(file, args, { cwd: copy, env, encoding: "utf8", stdio: "pipe" });
    return { ok: true, output };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}
const bin = (copy: string, name: string) => join(copy, "node_modules", ".bin", name);
/** `tsc` over the whole copy; incremental, so checking again after a walk's last steps reads only what they changed. */
const typeCheck = (copy: string) =>
  inCopy(copy, bin(copy, "tsc"), ["--noEmit", "-p", ".", "--incremental", "--tsBuildInfoFile", "walk.tsbuildinfo"]);
const runTests = (copy: string, files: string[], pattern?: string) =>
  inCopy(copy, process.execPath, [
    "--import",
    "tsx",
    "--test",
    "--test-concurrency=1",
    ...(pattern ? [`--test-name-pattern=${pattern}`] : []),
    ...files,
  ]);

/** `tsc` over the copy, Biome on `files`, and the walk's own test (`file`'s tests named by `pattern`), passed. */
function checksPass(copy: string, files: string[], own: { file: string; pattern: string; passed: RegExp }): void {
  const types = typeCheck(copy);
  assert.ok(types.ok, types.output);
  const lint = inCopy(copy, bin(copy, "biome"), ["check", ...files]);
  assert.ok(lint.ok, lint.output);
  const ran = runTests(copy, [own.file], own.pattern);
  assert.ok(ran.ok, ran.output);
  assert.match(ran.output, own.passed);
}

describe("CONTRIBUTING.md's walks, followed on a copy of the project", () => {
  const walks = walksOf(readFileSync(join(root, "CONTRIBUTING.md"), "utf8"));
  const [page, operation, form] = walks;
  let copy: string;

  before(() => {
    copy = mkdtempSync(join(tmpdir(), "contributing-"));
    for (const path of projectFiles) {
      mkdirSync(dirname(join(copy, path)), { recursive: true });
      try {
        copyFileSync(join(root, path), join(copy, path));
      } catch {
        // A file deleted in the work tree and not yet committed: the copy has it no more than the project.
      }
    }
    // The installed packages and the build are the project's own (the server tests render pages from dist/).
    symlinkSync(realpathSync(join(root, "node_modules")), join(copy, "node_modules"));
    symlinkSync(join(root, "dist"), join(copy, "dist"));
  });
  after(() => rmSync(copy, { recursive: true, force: true }));

  it("has three walks, a gated page, an operation and a form, each with steps", () => {
    assert.deepEqual(
      walks.map((walk) => walk.title),
      ["A gated page (3 files)", "An operation (5 files, one of them generated)", "A form without script (6 files)"],
    );
    for (const walk of walks) assert.ok(walk.steps.length >= 3, walk.title);
  });

  it("a gated page: the files its heading counts, and the route table's, home page's and docs' tests pass with the new row", () => {
    assert.ok(page);
    for (const step of page.steps) if (step.kind === "edit") apply(copy, step);
    const changed = changedFiles(copy);
    assert.deepEqual(changed, ["docs/requirements.md", "web/routes/client.ts", "web/texts/home.ts"]);
    assert.equal(changed.length, page.files);
    const tests = runTests(copy, [
      "tests/web/routes/table.test.ts",
      "tests/web/texts/home.test.ts",
      "tests/docs.test.ts",
    ]);
    assert.ok(tests.ok, tests.output);
    const lint = inCopy(copy, bin(copy, "biome"), ["check", "web/routes/client.ts", "web/texts/home.ts"]);
    assert.ok(lint.ok, lint.output);
    const matched = inCopy(copy, process.execPath, [
      "--import",
      "tsx",
      "--eval",
      'import("#web/routes/table.ts").then(({ matchRoute }) => console.log(JSON.stringify(matchRoute("/client/reports/fx")?.entry)))',
    ]);
    assert.deepEqual(JSON.parse(matched.output), {
      path: "/client/reports/fx",
      section: "client",
      title: "FX Report",
      screen: "about",
      gate: "spotTier",
      group: "Reports",
      about: "Exchange rates of spot payments.",
    });
  });

  it("an operation: the description and one typed row, which tsc asks for by name; the files its heading counts", () => {
    assert.ok(operation);
    const before = new Set(changedFiles(copy));
    const [described, generate, row, ...rest] = operation.steps;
    assert.equal(described?.kind === "edit" && described.file, "openapi/portal.yaml");
    assert.equal(generate?.kind === "run" && generate.command, "npm run gen:api");
    assert.equal(row?.kind === "edit" && row.file, "server/actions/rules.ts");
    for (const step of [described, generate]) {
      if (step?.kind === "edit") apply(copy, step);
      if (step?.kind === "run") {
        const ran = inCopy(copy, "npm", step.command.split(" ").slice(1));
        assert.ok(ran.ok, ran.output);
      }
    }
    const without = typeCheck(copy);
    const errors = without.output.split("\n").filter((line) => /error TS\d+/.test(line));
    assert.equal(errors.length, 1, without.output);
    assert.match(
      errors[0] ?? "",
      /^server\/actions\/rules\.ts\(\d+,\d+\): error TS2741: Property 'markInboxRead' is missing/,
    );
    for (const step of [row, ...rest]) if (step?.kind === "edit") apply(copy, step);
    const changed = changedFiles(copy).filter((path) => !before.has(path));
    assert.deepEqual(changed, [
      "openapi/portal.yaml",
      "openapi/schema.ts",
      "sandbox/web-routes.ts",
      "server/actions/rules.ts",
      "tests/server/routes/api.test.ts",
    ]);
    assert.equal(changed.length, operation.files);
  });

  it("then the project type-checks and lints, and the operation is served, allowed and tested", () => {
    checksPass(copy, ["sandbox/web-routes.ts", "server/actions/rules.ts", "tests/server/routes/api.test.ts"], {
      file: "tests/server/routes/api.test.ts",
      pattern: "inbox/read",
      passed: /✔ marks the signed-in user's inbox read/,
    });
    const suites = runTests(copy, ["tests/sandbox/app.test.ts", "tests/server/actions/perform.test.ts"]);
    assert.ok(suites.ok, suites.output);
  });

  it("a form without script: the files its heading counts; then it type-checks, lints, and its test passes", () => {
    assert.ok(form);
    const before = contentsOf(copy);
    for (const step of form.steps) if (step.kind === "edit") apply(copy, step);
    const changed = changedFiles(copy, before);
    assert.deepEqual(changed, [
      "server/routes/sign-in-forms.ts",
      "tests/server/routes/sign-in-forms.test.ts",
      "web/components/home-screen.tsx",
      "web/protocol/form-answer.ts",
      "web/screens/section-page.tsx",
      "web/texts/home.ts",
    ]);
    assert.equal(changed.length, form.files);
    checksPass(copy, changed, {
      file: "tests/server/routes/sign-in-forms.test.ts",
      pattern: "Mark all read",
      passed: /✔ marks the inbox read by the island's action/,
    });
  });
});

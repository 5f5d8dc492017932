// Tests mirror the code: every module of server/, sandbox/ and web/ with behaviour of its own has a test at its
// mirrored path (`server/x/y.ts` → `tests/server/x/y.test.ts`), and the npm scripts run every test file. The kinds that
// need none, and the few modules whose behaviour is tested elsewhere, are named below with the reason; each named test
// must exist. And the portal reaches its sandbox over HTTP only: no module of server/ imports sandbox/; the stores
// import nothing of the account domain (server/account/).
// CONTRIBUTING.md states the rules.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

/** Kinds of module that have no test file of their own, and why. */
const exemptKinds: [RegExp, string][] = [
  [/^web\/(components|screens)\/.+\.tsx$/, "screens and their parts: tests/browser/, named after what a person does"],
  [/^web\/components\/use-.+\.ts$/, "hooks: tests/browser/"],
  [/^web\/islands\/.+\.tsx$/, "islands: tests/browser/"],
  [/^web\/client\/|^web\/islands\/hydrate\.ts$/, "scripts that run only in a page: tests/browser/"],
  [/^web\/routes\/(client|vendor|uspto|uscis|public)\.ts$/, "rows of the route table: tests/web/routes/table.test.ts"],
];

/**
 * Modules whose behaviour shows only through another module's, and the test file that covers it there: wiring,
 * tables read by a route, loaders of a route's pages, and the Redis halves of contracts tested on both backends.
 */
const testedElsewhere: Record<string, string> = {
  "server/context.ts": "tests/server/app.test.ts",
  "server/actions/rules.ts": "tests/server/actions/perform.test.ts",
  "server/loaders/account-view.ts": "tests/server/routes/account.test.ts",
  "server/loaders/public.tsx": "tests/server/routes/pages.test.ts",
  "server/stores/redis-scripts.ts": "tests/server/stores/counters-redis.test.ts",
};

/** The project's files under `folders`, committed or not yet (a new module is checked before it is added). */
const filesIn = (...folders: string[]) =>
  execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", ...folders], { encoding: "utf8" })
    .split("\n")
    .filter((path) => path !== "" && existsSync(path));

const sources = filesIn("server", "sandbox", "web").filter((path) => /\.tsx?$/.test(path) && !path.endsWith(".d.ts"));

/** The test files the npm scripts run: a test at a depth their globs do not reach would never run. */
const scripts = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;
const globs = ["test:web", "test:server", "test:browser"].flatMap((name) =>
  (scripts[name] ?? "").split(/\s+/).filter((word) => word.startsWith("tests/")),
);
const pattern = (glob: string) => new RegExp(`^${glob.replaceAll(".", "\\.").replaceAll("*", "[^/]*")}$`);
const run = (test: string) => globs.some((glob) => pattern(glob).test(test));

/**
 * Types only (every export a type, an interface or a declaration), or constants and words only (no function in it):
 * nothing that decides, so nothing to test on its own.
 */
function nothingRuns(path: string): boolean {
  const text = readFileSync(path, "utf8");
  return !/^export\s+(?!type\b|interface\b|declare\b)/m.test(text) || !/=>|\bfunction\b|\bclass\b/.test(text);
}

/** An import or re-export of sandbox/, static or dynamic, by its alias or by a relative path. */
function importsSandbox(text: string): boolean {
  return /(?:\bfrom\s*|\bimport\s*\(?\s*)["'](?:#sandbox\/|(?:\.\.\/)+sandbox\/)/.test(text);
}

const mirrorOf = (path: string) => `tests/${path.replace(/\.tsx?$/, "")}.test.ts`;

const missing: string[] = [];
for (const path of sources) {
  if (existsSync(mirrorOf(path)) || exemptKinds.some(([kind]) => kind.test(path)) || nothingRuns(path)) continue;
  const elsewhere = testedElsewhere[path];
  if (elsewhere === undefined) missing.push(`${path}: no ${mirrorOf(path)}`);
  else if (!existsSync(elsewhere)) missing.push(`${path}: ${elsewhere} does not exist`);
}
for (const test of filesIn("tests").filter((path) => path.endsWith(".test.ts")))
  if (!run(test)) missing.push(`${test} is run by no test script: its folder is deeper than their globs reach`);
for (const [path, elsewhere] of Object.entries(testedElsewhere)) {
  if (!sources.includes(path)) missing.push(`${path} (tested in ${elsewhere}) is no module any more`);
  else if (existsSync(mirrorOf(path))) missing.push(`${path} has ${mirrorOf(path)} now: drop it from the list`);
}
for (const path of sources.filter((source) => source.startsWith("server/")))
  if (importsSandbox(readFileSync(path, "utf8")))
    missing.push(`${path} imports the sandbox: the portal reaches it over HTTP only (sandbox/launch.ts starts both)`);
for (const path of sources.filter((source) => source.startsWith("server/stores/")))
  if (/["']#server\/account\//.test(readFileSync(path, "utf8")))
    missing.push(
      `${path} imports the account domain: the stores are below it, what they share with it lives beside both`,
    );
if (missing.length > 0) {
  console.error(`check-tests-mirror: ${missing.length} of the tests a newcomer looks for are missing or never run:`);
  for (const line of missing) console.error(`  ${line}`);
  process.exit(1);
}
console.log(
  `check-tests-mirror: ${sources.length} modules, each tested at its mirrored path, of a kind that needs none, or named here`,
);

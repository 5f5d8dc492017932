// Runs a part's test files in two processes side by side, each holding all of its share in one process
// (--test-isolation=none): Node, tsx, the portal's modules and chromium start twice, not once a file. So a file keeps
// its hooks in a describe (at its top they would run for every file of its share, or once for all of them at the
// share's start and end) and undoes what it sets for the process (docs/decisions.md, "The suite's time"). The files are
// dealt longest first, each to the share with less to do so far, by the seconds each took on a quiet machine
// (`SECONDS`; a file not listed counts as `UNLISTED`), so both end about together. Arguments that start with "--" go to
// both. The first share reports as it runs, the second once it ends; the last line says which failed (and it exits 1
// if any did).
import { type ChildProcess, spawn } from "node:child_process";
import { relative } from "node:path";

/** Seconds a file's tests took in a quiet run, by its path under tests/: only their sizes against each other count. */
const SECONDS: Record<string, number> = {
  "browser/accessibility.test.ts": 70,
  "browser/account.test.ts": 46,
  "browser/clerk-pages.test.ts": 42,
  "browser/common-password.test.ts": 3,
  "browser/device-memory.test.ts": 15,
  "browser/forms-before-script.test.ts": 19,
  "browser/idle-clock.test.ts": 19,
  "browser/idle-warning.test.ts": 41,
  "browser/layout.test.ts": 43,
  "browser/link-from-another-site.test.ts": 18,
  "browser/link-login.test.ts": 28,
  "browser/mfa-code.test.ts": 25,
  "browser/other-upstream.test.ts": 20,
  "browser/password.test.ts": 49,
  "browser/sandbox-mailbox.test.ts": 8,
  "browser/sandbox-reset.test.ts": 6,
  "browser/sections.test.ts": 18,
  "browser/session-ended.test.ts": 18,
  "browser/session-expiry.test.ts": 10,
  "browser/sign-in.test.ts": 67,
  "browser/trusted-browsers.test.ts": 18,
  "contributing.test.ts": 55,
  "docs.test.ts": 2,
  "sandbox/launch.test.ts": 22,
  "sandbox/main.test.ts": 5,
  "server/account/permissions.test.ts": 4,
  "server/account/sessions.test.ts": 9,
  "server/actions/effects.test.ts": 3,
  "server/actions/perform-faults.test.ts": 3,
  "server/app.fuzz.test.ts": 6,
  "server/app.test.ts": 3,
  "server/loaders/visits.test.ts": 2,
  "server/main.test.ts": 4,
  "server/routes/account.test.ts": 2,
  "server/routes/documents.test.ts": 3,
  "server/routes/health.test.ts": 2,
  "server/security/throttle.test.ts": 19,
  "server/session/fields.test.ts": 2,
  "server/session/lifecycle.test.ts": 4,
  "server/session/plugin.test.ts": 3,
  "server/stores/create-stores.test.ts": 5,
  "server/stores/redis-link.test.ts": 9,
  "server/upstream/answer-reader.test.ts": 3,
  "server/upstream/answer-reader.shape.test.ts": 6,
  "server/upstream/client.test.ts": 7,
  "server/upstream/tracking.test.ts": 6,
  "test-parts.test.ts": 3,
};
/** A file not yet timed counts as a short one (most server files take under two seconds): time it and list it. */
const UNLISTED = 1;
const SHARES = 2;

const options = process.argv.slice(2).filter((argument) => argument.startsWith("--"));
const files = process.argv.slice(2).filter((argument) => !argument.startsWith("--"));
if (files.length < SHARES) {
  console.error(`test-shares: give ${SHARES} test files or more`);
  process.exit(2);
}
const tests = new URL("../tests/", import.meta.url).pathname;
/** The pages are rendered by React's production build, as the server tests' are (harness/production-react.ts). */
const PRODUCTION_REACT = new URL("../harness/production-react.ts", import.meta.url).pathname;
const secondsOf = (file: string) => SECONDS[relative(tests, file)] ?? UNLISTED;

/** Longest first, each to the share with the fewest seconds so far. */
const shares = Array.from({ length: SHARES }, () => ({ files: [] as string[], seconds: 0 }));
for (const file of [...files].sort((one, two) => secondsOf(two) - secondsOf(one))) {
  const share = shares.reduce((least, next) => (next.seconds < least.seconds ? next : least));
  share.files.push(file);
  share.seconds += secondsOf(file);
}

// Node 22 knows the flag by its earlier name.
const isolation = process.versions.node.startsWith("22.")
  ? "--experimental-test-isolation=none"
  : "--test-isolation=none";
const children: ChildProcess[] = [];
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exit(1);
  });
}

/** One share's process; its output goes straight through when `live`, else is kept and returned. */
function run(share: string[], live: boolean): Promise<{ passed: boolean; output: string }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--import", PRODUCTION_REACT, "--test", isolation, ...options, ...share],
    {
      stdio: live ? "inherit" : ["ignore", "pipe", "pipe"],
    },
  );
  children.push(child);
  const chunks: Buffer[] = [];
  child.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk));
  child.stderr?.on("data", (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve) => {
    child.on("close", (code) => resolve({ passed: code === 0, output: Buffer.concat(chunks).toString() }));
  });
}

const results = await Promise.all(shares.map((share, index) => run(share.files, index === 0)));
for (const { output } of results.slice(1)) process.stdout.write(output);
const failed = results.flatMap((result, index) => (result.passed ? [] : [`share ${index + 1}`]));
const sizes = shares.map((share) => share.files.length).join(" and ");
if (failed.length === 0) console.error(`test-shares: all passed (shares of ${sizes} files)`);
else console.error(`test-shares: failed: ${failed.join(", ")} (shares of ${sizes} files)`);
process.exit(failed.length === 0 ? 0 : 1);

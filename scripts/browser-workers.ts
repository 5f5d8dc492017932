// Runs the browser test files in two processes side by side, each holding all of its share in one process
// (--test-isolation=none): Node, tsx, the portal's modules and chromium start twice, not once a file. The files are
// dealt longest first, each to the process with less to do so far, by the seconds each took on a quiet machine
// (`SECONDS`; a file not listed counts as an average one), so both end about together. Arguments that start with "--"
// go to both. The first process reports as it runs, the second once it ends; the last line says which failed (and it
// exits 1 if any did).
import { type ChildProcess, spawn } from "node:child_process";
import { basename } from "node:path";

/** Seconds each file's tests took in a quiet run (a process a file): only their sizes against each other count. */
const SECONDS: Record<string, number> = {
  "accessibility.test.ts": 70,
  "account.test.ts": 46,
  "clerk-pages.test.ts": 42,
  "common-password.test.ts": 3,
  "device-memory.test.ts": 15,
  "forms-before-script.test.ts": 19,
  "idle-clock.test.ts": 19,
  "idle-warning.test.ts": 41,
  "layout.test.ts": 43,
  "link-from-another-site.test.ts": 18,
  "link-login.test.ts": 28,
  "mfa-code.test.ts": 25,
  "other-upstream.test.ts": 20,
  "password.test.ts": 49,
  "sandbox-mailbox.test.ts": 8,
  "sandbox-reset.test.ts": 6,
  "sections.test.ts": 18,
  "session-ended.test.ts": 18,
  "session-expiry.test.ts": 10,
  "sign-in.test.ts": 67,
  "trusted-browsers.test.ts": 18,
};
const WORKERS = 2;

const options = process.argv.slice(2).filter((argument) => argument.startsWith("--"));
const files = process.argv.slice(2).filter((argument) => !argument.startsWith("--"));
if (files.length < WORKERS) {
  console.error(`browser-workers: give ${WORKERS} test files or more`);
  process.exit(2);
}

const known = Object.values(SECONDS);
const average = known.reduce((sum, seconds) => sum + seconds, 0) / known.length;
const secondsOf = (file: string) => SECONDS[basename(file)] ?? average;

/** Longest first, each to the share with the fewest seconds so far. */
const shares = Array.from({ length: WORKERS }, () => ({ files: [] as string[], seconds: 0 }));
for (const file of [...files].sort((one, two) => secondsOf(two) - secondsOf(one))) {
  const share = shares.reduce((least, next) => (next.seconds < least.seconds ? next : least));
  share.files.push(file);
  share.seconds += secondsOf(file);
}

const children: ChildProcess[] = [];
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exit(1);
  });
}

/** One share's process; its output goes straight through when `live`, else is kept and returned. */
function run(share: string[], live: boolean): Promise<{ passed: boolean; output: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "--test", "--test-isolation=none", ...options, ...share], {
    stdio: live ? "inherit" : ["ignore", "pipe", "pipe"],
  });
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
if (failed.length === 0) console.error(`browser-workers: all passed (shares of ${sizes} files)`);
else console.error(`browser-workers: failed: ${failed.join(", ")} (shares of ${sizes} files)`);
process.exit(failed.length === 0 ? 0 : 1);

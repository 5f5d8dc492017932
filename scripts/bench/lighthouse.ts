// Benchmark 6: Lighthouse's performance score of the login page and a signed-in section page, desktop and mobile.
// Debian's chromium, headless with a fresh profile each run; Lighthouse's standard simulated throttling.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import lighthouse, { desktopConfig, type Result as LighthouseResult } from "lighthouse";
import { accounts, fakeUpstreamCode, signIn } from "#harness/sign-in.ts";
import { startPortalOnUpstream } from "#scripts/bench/portal.ts";
import { freePort } from "#scripts/bench/processes.ts";
import type { Row } from "#scripts/bench/report.ts";

export type LighthouseOptions = {
  /** Runs of each page and form factor; the row keeps the run of median score. */
  runs: number;
};

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** No outside network here: nothing in the background may reach for it (and skew the timings). */
const CHROMIUM_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const REPORTS = new URL("../../artifacts/bench/lighthouse/", import.meta.url).pathname;

type Page = { name: string; path: string; signedIn: boolean };
const PAGES: Page[] = [
  { name: "login page", path: "/", signedIn: false },
  { name: "signed-in section page", path: "/client/home", signedIn: true },
];

type FormFactor = { name: "desktop" | "mobile"; goal: number; exact: boolean };
const FORM_FACTORS: FormFactor[] = [
  { name: "desktop", goal: 100, exact: true },
  { name: "mobile", goal: 100, exact: true },
];

type Chromium = { port: number; stop(): Promise<void> };

/** Chromium with a fresh temporary profile, listening for DevTools on a free port. */
async function launchChromium(): Promise<Chromium> {
  const profile = mkdtempSync(join(tmpdir(), "bench-chromium-"));
  const port = await freePort();
  const child: ChildProcess = spawn(
    CHROMIUM,
    [...CHROMIUM_FLAGS, `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, "about:blank"],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-4000);
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        // Chromium's helper processes may still be writing to the profile for a moment after the browser exits.
        try {
          rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
        } catch (error) {
          console.error(`  lighthouse: could not remove ${profile}: ${String(error)}`);
        }
        resolve();
      };
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once("exit", done);
      child.kill("SIGTERM");
    });
  for (let attempt = 0; attempt < 150; attempt++) {
    if (child.exitCode !== null) break;
    try {
      const answer = await fetch(`http://127.0.0.1:${port}/json/version`);
      if (answer.ok) return { port, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`${CHROMIUM} did not open its DevTools port ${port}:\n${stderr}`);
}

/** One Lighthouse run in its own chromium; the JSON and HTML reports are kept for a person to read. */
async function audit(url: string, formFactor: FormFactor, cookie: string | undefined, reportName: string) {
  const chromium = await launchChromium();
  try {
    const result = await lighthouse(
      url,
      {
        port: chromium.port,
        hostname: "127.0.0.1",
        output: ["json", "html"],
        logLevel: "error",
        onlyCategories: ["performance"],
        // The production cookie is `__Host-` and Secure: chromium would not store it over http, but sends it as a header.
        ...(cookie ? { extraHeaders: { cookie } } : {}),
      },
      formFactor.name === "desktop" ? desktopConfig : undefined,
    );
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const [json, html] = result.report as string[];
    mkdirSync(REPORTS, { recursive: true });
    writeFileSync(`${REPORTS}${reportName}.report.json`, json ?? "");
    writeFileSync(`${REPORTS}${reportName}.report.html`, html ?? "");
    return result.lhr;
  } finally {
    await chromium.stop();
  }
}

/** Attempts of one run that Lighthouse itself failed (its runtime error says to run it again), before it counts as 0. */
const ATTEMPTS = 3;

/** One run, run again when Lighthouse failed to record it (e.g. NO_NAVSTART): that says nothing of the page. */
async function auditUntilTraced(url: string, formFactor: FormFactor, cookie: string | undefined, reportName: string) {
  for (let attempt = 1; ; attempt++) {
    const lhr = await audit(url, formFactor, cookie, reportName);
    if (!lhr.runtimeError || attempt === ATTEMPTS) return lhr;
    console.error(`  lighthouse: ${reportName} failed (${lhr.runtimeError.code}), attempt ${attempt} of ${ATTEMPTS}`);
  }
}

const score = (lhr: LighthouseResult) => Math.round((lhr.categories.performance?.score ?? 0) * 100);
const numeric = (lhr: LighthouseResult, id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;

function metrics(lhr: LighthouseResult): string {
  const lcp = numeric(lhr, "largest-contentful-paint") / 1000;
  const tbt = numeric(lhr, "total-blocking-time");
  const cls = numeric(lhr, "cumulative-layout-shift");
  return `LCP ${lcp.toFixed(1)} s, TBT ${Math.round(tbt)} ms, CLS ${Number(cls.toFixed(3))}`;
}

function secondaryMetrics(lhr: LighthouseResult): string {
  const seconds = (id: string) => `${(numeric(lhr, id) / 1000).toFixed(1)} s`;
  return `FCP ${seconds("first-contentful-paint")}, Speed Index ${seconds("speed-index")}`;
}

/** What a missed score is made of: the metrics that lost points, then the opportunities and diagnostics that failed. */
function whyMissed(lhr: LighthouseResult): string[] {
  const lost = (lhr.categories.performance?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
    .map((ref) => {
      const item = lhr.audits[ref.id];
      return `metric ${ref.id}: ${item?.displayValue ?? ""} (score ${item?.score}, weight ${ref.weight})`;
    });
  const failed = Object.values(lhr.audits)
    .filter((item) => item.score !== null && item.score < 0.9 && item.scoreDisplayMode !== "informative")
    .filter((item) => !lost.some((line) => line.startsWith(`metric ${item.id}:`)))
    .map((item) => `${item.id}: ${item.title}${item.displayValue ? ` (${item.displayValue})` : ""}`);
  return [...lost, ...failed];
}

export async function lighthouseBenches(options: LighthouseOptions): Promise<Row[]> {
  const servers = await startPortalOnUpstream();
  try {
    const { portal } = servers;
    rmSync(REPORTS, { recursive: true, force: true });
    // One session for every run (signing in is throttled): chromium cannot store its `__Host-` cookie over http, so
    // every run sends the cookie as it was at sign-in, and every run's page view is alike.
    const sessionCookie = (await signIn(portal.url, accounts.alice, fakeUpstreamCode)).cookieHeader;
    const rows: Row[] = [];
    for (const page of PAGES) {
      for (const formFactor of FORM_FACTORS) {
        const runs: LighthouseResult[] = [];
        for (let run = 0; run < options.runs; run++) {
          const cookie = page.signedIn ? sessionCookie : undefined;
          const name = `${page.path === "/" ? "login" : page.path.slice(1).replaceAll("/", "-")}-${formFactor.name}`;
          runs.push(await auditUntilTraced(`${portal.url}${page.path}`, formFactor, cookie, `${name}-${run + 1}`));
        }
        const lhr = [...runs].sort((a, b) => score(a) - score(b))[Math.floor(runs.length / 2)] as LighthouseResult;
        const result = score(lhr);
        const met = formFactor.exact ? result === formFactor.goal : result >= formFactor.goal;
        if (!met)
          console.error(
            `  lighthouse: ${page.path} ${formFactor.name} scored ${result}:\n${whyMissed(lhr)
              .map((line) => `    ${line}`)
              .join("\n")}`,
          );
        const benchmarkIndex = lhr.environment.benchmarkIndex;
        rows.push({
          name: `6. Lighthouse performance: ${page.name} ${page.path} (${formFactor.name})`,
          subject: metrics(lhr),
          reference: `${secondaryMetrics(lhr)}; Lighthouse ${lhr.lighthouseVersion}, ${formFactor.name === "desktop" ? "desktop config" : "default mobile config"}, simulated throttling, benchmark index ${Math.round(benchmarkIndex)}${runs.length > 1 ? `, median of ${runs.length} runs (${runs.map(score).join(", ")})` : ""}`,
          result: String(result),
          goal: `${formFactor.exact ? "=" : "≥"} ${formFactor.goal}`,
          met,
        });
      }
    }
    return rows;
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
}

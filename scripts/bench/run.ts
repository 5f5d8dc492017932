// `npm run bench`: every benchmark of docs/performance.md in one run, printed as one table and kept in artifacts/.
// `--quick` shortens the rounds (a smoke run); `--only=throughput,wrappers,routes,password,endings,bytes,lighthouse,memory,formatters` picks groups;
// `--skip=lighthouse,memory` (or BENCH_SKIP=lighthouse,memory) leaves groups out while iterating;
// `--memory-seconds=120` runs the memory load that long instead of 10 minutes. The full run is every group: a run that
// left one out says so above its table.
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { bytesBenches } from "#scripts/bench/budgets.ts";
import { endingBenches } from "#scripts/bench/endings.ts";
import { formatterBenches } from "#scripts/bench/formatters.ts";
import { lighthouseBenches } from "#scripts/bench/lighthouse.ts";
import type { LoadOptions } from "#scripts/bench/load.ts";
import { type MemoryOptions, memoryBenches } from "#scripts/bench/memory.ts";
import { markdownTable, type Row } from "#scripts/bench/report.ts";
import { routeBenches } from "#scripts/bench/routes.ts";
import { throughputBenches } from "#scripts/bench/throughput.ts";
import { wrapperBenches } from "#scripts/bench/wrappers.ts";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const list = (flag: string) =>
  args
    .find((arg) => arg.startsWith(`--${flag}=`))
    ?.slice(`--${flag}=`.length)
    .split(",")
    .filter(Boolean);
const only = list("only");
const skip = [...(list("skip") ?? []), ...(process.env.BENCH_SKIP?.split(",").filter(Boolean) ?? [])];
const wanted = (group: string) => (!only || only.includes(group)) && !skip.includes(group);

// Short rounds, many of them: the machine's speed drifts over minutes, and finely alternated rounds share the drift.
const load: LoadOptions = quick
  ? { rounds: 3, seconds: 3, warmupSeconds: 2 }
  : { rounds: 10, seconds: 4, warmupSeconds: 5 };

const memorySeconds = Number(list("memory-seconds")?.[0] ?? Number.NaN);
const memory: MemoryOptions =
  Number.isInteger(memorySeconds) && memorySeconds >= 10
    ? { seconds: memorySeconds, warmupSeconds: 10, sampleSeconds: 10, quick: memorySeconds < 600 }
    : quick
      ? { seconds: 60, warmupSeconds: 5, sampleSeconds: 10, quick }
      : { seconds: 600, warmupSeconds: 10, sampleSeconds: 30, quick };

const groups: [string, () => Promise<Row[]>][] = [
  ["throughput", () => throughputBenches(load)],
  ["wrappers", () => wrapperBenches(load)],
  [
    "routes",
    () => routeBenches(quick ? { rounds: 2, batch: 20, freshBatch: 5 } : { rounds: 5, batch: 100, freshBatch: 20 }),
  ],
  [
    "password",
    () =>
      routeBenches({
        ...(quick ? { rounds: 2, batch: 20, freshBatch: 5 } : { rounds: 5, batch: 40, freshBatch: 20 }),
        only: {
          pattern: /password\/change|\(change-password\)/,
          title:
            "10b. Password change: CPU of the costlier of the form and the /api call ÷ a signed-in section page view (CPU, injected)",
        },
      }),
  ],
  // Row 10d: a person's 20 sessions ended from one of them (the form, a password change), and a sign-in.
  [
    "endings",
    () => endingBenches(quick ? { rounds: 2, batch: 20, endings: 2 } : { rounds: 10, batch: 100, endings: 10 }),
  ],
  ["bytes", () => bytesBenches()],
  // Lighthouse's scores vary from run to run: the full run keeps the median of three.
  ["lighthouse", () => lighthouseBenches({ runs: quick ? 1 : 3 })],
  ["memory", () => memoryBenches(memory)],
  ["formatters", () => formatterBenches()],
];

const unknown = [...(only ?? []), ...skip].filter((group) => !groups.some(([name]) => name === group));
if (unknown.length > 0) throw new Error(`no such group: ${unknown.join(", ")}`);

const rows: Row[] = [];
const left = groups.map(([group]) => group).filter((group) => !wanted(group));
for (const [group, bench] of groups) {
  if (!wanted(group)) continue;
  console.error(`running ${group}…`);
  rows.push(...(await bench()));
}

const machine = `${cpus().length} × ${cpus()[0]?.model ?? "CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const partial = left.length > 0 ? ` (not a full run: ${left.join(", ")} left out)` : "";
const table = `Run of ${new Date().toISOString().slice(0, 10)} on ${machine}${quick ? " (quick mode)" : ""}${partial}\n\n${markdownTable(rows)}\n`;
console.log(table);
const out = new URL("../../artifacts/bench/", import.meta.url).pathname;
mkdirSync(out, { recursive: true });
writeFileSync(`${out}latest.md`, table);
writeFileSync(`${out}latest.json`, `${JSON.stringify({ machine, quick, left, rows }, null, 2)}\n`);
process.exitCode = rows.every((row) => row.met !== false) ? 0 : 1;

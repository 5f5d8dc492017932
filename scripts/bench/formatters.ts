// Benchmark 7d: the account page's times leave memory flat. Rendering its sections 10,000 times, in a child process
// that collects garbage fully before each reading (ICU's memory lives outside the heap: a formatter made per call, 60
// per page, once grew the process by about 700 MB in the first 1,000 renders), levels off. The allocator's arenas
// settle within the first few thousand renders (about 130 MB on Node 24, less on 22), so the bound on the whole run
// leaves them room, and the last half shows the level.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Row } from "#scripts/bench/report.ts";

const RENDERS = 10_000;
const WHOLE_RUN_BOUND = 192 * 2 ** 20;
const LAST_HALF_BOUND = 48 * 2 ** 20;
const mib = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MiB`;

export async function formatterBenches(): Promise<Row[]> {
  const script = new URL("account-page-renders.ts", import.meta.url).pathname;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      "--expose-gc",
      "--import",
      "tsx",
      "--import",
      new URL("../../harness/production-react.ts", import.meta.url).pathname,
      script,
      String(RENDERS),
      "1000",
      String(WHOLE_RUN_BOUND),
    ],
    { maxBuffer: 2 ** 20 },
  );
  const readings = stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { rendered: number; rss: number; times: number });
  const first = readings[0];
  const half = readings.find((reading) => reading.rendered === RENDERS / 2);
  const last = readings.at(-1);
  if (!first || !half || !last || last.rendered !== RENDERS) throw new Error(`stopped early: ${stdout}`);
  const whole = last.rss - first.rss;
  const lastHalf = last.rss - half.rss;
  return [
    {
      name: `7d. Memory: the account page's sections (${first.times} times each) rendered ${RENDERS.toLocaleString("en")} times, RSS after a full GC`,
      subject: `grew ${mib(whole)} over the run, ${mib(lastHalf)} over the last half`,
      reference: `after 100 renders of warm-up: ${mib(first.rss)}`,
      result: mib(lastHalf),
      goal: `last half < ${mib(LAST_HALF_BOUND)}, the run < ${mib(WHOLE_RUN_BOUND)}`,
      met: lastHalf < LAST_HALF_BOUND && whole < WHOLE_RUN_BOUND,
    },
  ];
}
